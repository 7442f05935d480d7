/** A quick check that a backend samples: the studio's probe of the backend it started (finite actions of the right shape). */
import * as tf from '@tensorflow/tfjs';
import type { ProbeSampleResult } from '../../protocol/trainer-api';
import { sampleActions } from '../flow/sampler';
import { FlowPolicy } from '../policy/flow-policy';
import { createRng } from '../random';
import type { BackendName } from './choose-backend';

/** A tiny policy (SwiftShader emulates the GPU on the CPU, so keep it small). */
const PROBE = { batch: 2, obsDim: 8, horizon: 4, actionDim: 4, steps: 4 } as const;

/** Samples one SDE-hybrid batch from a fresh tiny policy on the active backend. */
export async function probeSample(seed: number, backend: BackendName): Promise<ProbeSampleResult> {
  const policy = new FlowPolicy(
    { obsDim: PROBE.obsDim, horizon: PROBE.horizon, actionDim: PROBE.actionDim, velocityHidden: [32, 32], encoderHidden: [32], valueHidden: [32], noiseHidden: [16] },
    seed,
  );
  const rng = createRng(seed);
  const state = tf.tensor2d(rng.fillNormal(new Float32Array(PROBE.batch * PROBE.obsDim)), [PROBE.batch, PROBE.obsDim]);
  try {
    const sample = await sampleActions(policy, { state }, { method: 'sde', mode: 'hybrid', steps: PROBE.steps, level: 0.5 }, rng);
    return {
      shape: [sample.batch, sample.horizon, sample.actionDim],
      actions: sample.actions,
      allFinite: sample.actions.every(Number.isFinite),
      backend,
    };
  } finally {
    state.dispose();
    policy.dispose();
  }
}
