import * as tf from '@tensorflow/tfjs';
import { chainLogProb, chainLogProbAllSteps, type ChainLogProbOptions } from '../../core/flow/chain-logprob';
import { sampleActions } from '../../core/flow/sampler';
import { FlowPolicy } from '../../core/policy/flow-policy';
import { resolveFlowPolicyOptions, type FlowPolicyOptions } from '../../core/policy/options';
import { createRng } from '../../core/random';
import { NamedAdam } from '../../core/rl/adam';
import { useNodeBackend } from '../node-backend';
import type { BenchRow } from './bench-row';
import { denseMacs, encoderMacs, velocityMacs } from './policy-flops';
import { matmulPeak, timeIt } from './bench-timing';
import { benchDitx } from './policy-ditx-bench';
import { benchOnnx } from './policy-onnx-bench';
import { benchUnet1d } from './policy-unet1d-bench';
import { benchCnn } from './policy-cnn-bench';
import { ppoStyleStep } from './bench-grad-step';

const OBS_DIM = 42;
/** The MLP policy's sizes as benched (shared with the gpu group): decisions per sampling call, chains per gradient step. */
export const MLP_SAMPLE_BATCH = 64;
export const MLP_GRAD_CHAINS = 1024;
const SAMPLE_BATCH = MLP_SAMPLE_BATCH;
const GRAD_CHAINS = MLP_GRAD_CHAINS;
const STEPS = 4;
/** The shipped state policy's architecture: the default MLP on a 42-value observation, H 8, 4 actions. */
export const MLP_ARCHITECTURE = resolveFlowPolicyOptions({ obsDim: OBS_DIM, horizon: 8, actionDim: 4 });
const architecture = MLP_ARCHITECTURE;
/** Sampling and log-prob settings of the MLP rows: SDE hybrid, K 4, the whole chunk scored. */
export const MLP_CHAIN_OPTIONS: ChainLogProbOptions = {
  method: 'sde', mode: 'hybrid', steps: STEPS, level: 0.5, logprobType: 'chunk', nActionSteps: 8, envActionDim: 4,
};
const chainOptions = MLP_CHAIN_OPTIONS;

/** Repetitions per backend: the pure-JS cpu backend is much slower, so it runs fewer. */
const REPEATS: Record<'wasm' | 'cpu', { sample: number; grad: number; matmul: number; matmulSize: number }> = {
  wasm: { sample: 30, grad: 4, matmul: 4, matmulSize: 1024 },
  cpu: { sample: 5, grad: 1, matmul: 2, matmulSize: 512 },
};

/**
 * Matmul FLOPs (2 per multiply-add) of one chain: encoder (unless its features are stored) and
 * value head once, the velocity net `velocityCalls` times.
 */
function forwardFlops(options: FlowPolicyOptions, velocityCalls: number, encode = true): number {
  return 2 * ((encode ? encoderMacs(options) : 0) + denseMacs(options, 'value.') + velocityCalls * velocityMacs(options));
}

function note(batch: number, extra: string): string {
  const o = architecture;
  return `obs_dim=${o.obsDim} horizon=${o.horizon} action_dim=${o.actionDim} velocity_hidden=[${o.velocityHidden}] encoder_hidden=[${o.encoderHidden}] value_hidden=[${o.valueHidden}] K=${STEPS} batch=${batch} method=sde hybrid; ${extra}`;
}

async function benchBackend(backend: 'wasm' | 'cpu'): Promise<BenchRow[]> {
  await useNodeBackend(backend);
  const repeats = REPEATS[backend];
  const policy = new FlowPolicy(architecture, 0);
  const rng = createRng(0);
  const sampleObs = tf.tensor2d(rng.fillNormal(new Float32Array(SAMPLE_BATCH * OBS_DIM)), [SAMPLE_BATCH, OBS_DIM]);
  const gradObs = tf.tensor2d(rng.fillNormal(new Float32Array(GRAD_CHAINS * OBS_DIM)), [GRAD_CHAINS, OBS_DIM]);
  const held: tf.Tensor[] = [sampleObs, gradObs];
  const optimizer = new NamedAdam();
  try {
    const sampleSeconds = await timeIt(repeats.sample, async () => {
      await sampleActions(policy, { state: sampleObs }, chainOptions, rng);
    }, 5);
    console.error(`  ${backend}: sampling ${(sampleSeconds * 1000).toFixed(1)} ms per batch of ${SAMPLE_BATCH}`);

    // PPO-style update on stored chains: clipped ratio surrogate + value MSE, backward, Adam.
    const stored = await sampleActions(policy, { state: gradObs }, chainOptions, rng);
    const chains = tf.tensor4d(stored.chains, [GRAD_CHAINS, STEPS + 1, 8, 4]);
    const mask = tf.tensor2d(stored.denoiseInds, [GRAD_CHAINS, STEPS]);
    const oldLogProb = tf.tidy(() => tf.sum(tf.tensor3d(stored.logProbs, [GRAD_CHAINS, 8, 4]), [1, 2]));
    const advantages = tf.tensor1d(rng.fillNormal(new Float32Array(GRAD_CHAINS)));
    const returns = tf.tensor1d(rng.fillNormal(new Float32Array(GRAD_CHAINS)));
    held.push(chains, mask, oldLogProb, advantages, returns);
    const variables = new Map([...policy.namedVariables()].filter(([name]) => !name.startsWith('noise_head.')));
    const batch = { obs: { state: gradObs }, chains, mask, oldLogProb, advantages, returns };
    const gradStep = (recompute: typeof chainLogProb) => ppoStyleStep(policy, batch, chainOptions, variables, optimizer, recompute);
    const oneStepSeconds = await timeIt(repeats.grad, gradStep(chainLogProb));
    const allStepsSeconds = await timeIt(repeats.grad, gradStep(chainLogProbAllSteps));
    console.error(`  ${backend}: gradient step ${(oneStepSeconds * 1000).toFixed(0)} ms (one step per chain), ${(allStepsSeconds * 1000).toFixed(0)} ms (all ${STEPS} steps) on ${GRAD_CHAINS} chains`);
    const peak = await matmulPeak(repeats.matmulSize, repeats.matmul);
    const flopsPerDecision = forwardFlops(architecture, STEPS);
    // Backward through a dense layer costs two matmuls of the forward's size: ×3 in total.
    const gradFlops = (velocityCalls: number) => 3 * forwardFlops(architecture, velocityCalls) * GRAD_CHAINS;
    const gradRows = (label: string, seconds: number, velocityCalls: number, what: string): BenchRow[] => [
      { group: 'policy', metric: `grad_samples_per_s_${label}`, value: GRAD_CHAINS / seconds, unit: 'samples/s', backend, note: note(GRAD_CHAINS, `${what}: log-prob recompute + backward + Adam`) },
      { group: 'policy', metric: `achieved_gflops_grad_${label}`, value: gradFlops(velocityCalls) / seconds / 1e9, unit: 'GFLOP/s', backend, note: note(GRAD_CHAINS, `${(gradFlops(velocityCalls) / 1e9).toFixed(2)} GFLOP of MLP matmuls per step (3x forward, ${velocityCalls} velocity call${velocityCalls > 1 ? 's' : ''} per chain); ${((100 * gradFlops(velocityCalls)) / seconds / 1e9 / peak).toFixed(0)}% of matmul_peak_gflops`) },
    ];
    return [
      { group: 'policy', metric: 'decisions_per_s', value: SAMPLE_BATCH / sampleSeconds, unit: 'decisions/s', backend, note: note(SAMPLE_BATCH, 'sampling incl. readback') },
      ...gradRows('one_step', oneStepSeconds, 1, 'hybrid chains as PPO trains them (DESIGN.md §3 "Cost")'),
      ...gradRows('all_steps', allStepsSeconds, STEPS, `all ${STEPS} steps recomputed (joint chains, value_on expert)`),
      { group: 'policy', metric: 'achieved_gflops', value: (flopsPerDecision * SAMPLE_BATCH) / sampleSeconds / 1e9, unit: 'GFLOP/s', backend, note: note(SAMPLE_BATCH, `sampling; ${(flopsPerDecision / 1e6).toFixed(2)} MFLOP per decision`) },
      { group: 'policy', metric: 'matmul_peak_gflops', value: peak, unit: 'GFLOP/s', backend, note: `square matmul ${repeats.matmulSize}×${repeats.matmulSize}×${repeats.matmulSize}, float32` },
    ];
  } finally {
    tf.dispose(held);
    optimizer.dispose();
    policy.dispose();
  }
}

/** Policy throughput on the wasm and cpu backends in Node (DESIGN.md §10 `policy` group). */
export async function runBench(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const backend of ['wasm', 'cpu'] as const) rows.push(...(await benchBackend(backend)));
  rows.push(...(await benchDitx('wasm')));
  rows.push(...(await benchUnet1d('wasm')));
  rows.push(...(await benchCnn('wasm')));
  rows.push(...(await benchOnnx()));
  return rows;
}
