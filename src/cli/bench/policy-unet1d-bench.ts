import * as tf from '@tensorflow/tfjs';
import { chainLogProb, type ChainLogProbOptions } from '../../core/flow/chain-logprob';
import { sampleActions } from '../../core/flow/sampler';
import { FlowPolicy } from '../../core/policy/flow-policy';
import { DEFAULT_FLOW_POLICY_OPTIONS, resolveFlowPolicyOptions, type FlowPolicyOptions } from '../../core/policy/options';
import { createRng } from '../../core/random';
import { NamedAdam } from '../../core/rl/adam';
import { useNodeBackend, type NodeBackend } from '../node-backend';
import type { BenchRow } from './bench-row';
import { timeAgainstPeak, timeIt } from './bench-timing';
import { ppoStyleStep } from './bench-grad-step';
import { denseMacs, encoderMacs, velocityMacs } from './policy-flops';

/** Seed 003's chunking (pred_horizon 16, act_horizon 8, 8 inference steps, 16 envs) on a 42-value state with history 2. */
const OBS_DIM = 42;
const HORIZON = 16;
const ACTION_DIM = 4;
const STEPS = 8;
const SAMPLE_BATCH = 16;
const GRAD_CHAINS = 256;
const CHAIN_OPTIONS: ChainLogProbOptions = { method: 'sde', mode: 'hybrid', steps: STEPS, level: 0.5, logprobType: 'chunk', nActionSteps: 8, envActionDim: ACTION_DIM };

/** The default widths, and twice them (the next size up) for comparison. */
const VARIANTS: Array<{ label: string; unetDims: number[] }> = [
  { label: 'unet1d', unetDims: DEFAULT_FLOW_POLICY_OPTIONS.unetDims },
  { label: 'unet1d_wide', unetDims: DEFAULT_FLOW_POLICY_OPTIONS.unetDims.map((width) => 2 * width) },
];

function architecture(unetDims: number[]): FlowPolicyOptions {
  return resolveFlowPolicyOptions({ obsDim: OBS_DIM, nObsSteps: 2, horizon: HORIZON, actionDim: ACTION_DIM, velocityNet: 'unet1d', unetDims });
}

function note(options: FlowPolicyOptions, batch: number, extra: string): string {
  return `unet1d dims=[${options.unetDims}] kernel=${options.unetKernel} groups=${options.unetGroups} obs_dim=${OBS_DIM} n_obs=2 H=${HORIZON} A=${ACTION_DIM} K=${STEPS} batch=${batch}; ${extra}`;
}

/** One variant: decisions per second as a rollout makes them, and PPO gradient samples per second, with their matmul GFLOP/s. */
async function benchVariant(backend: NodeBackend, label: string, unetDims: number[]): Promise<BenchRow[]> {
  const options = architecture(unetDims);
  const policy = new FlowPolicy(options, 0);
  const rng = createRng(3);
  const obsSize = 2 * OBS_DIM;
  const sampleObs = tf.tensor2d(rng.fillNormal(new Float32Array(SAMPLE_BATCH * obsSize)), [SAMPLE_BATCH, obsSize]);
  const gradObs = tf.tensor2d(rng.fillNormal(new Float32Array(GRAD_CHAINS * obsSize)), [GRAD_CHAINS, obsSize]);
  const held: tf.Tensor[] = [sampleObs, gradObs];
  const optimizer = new NamedAdam();
  try {
    const sampleSeconds = await timeIt(10, async () => {
      await sampleActions(policy, { state: sampleObs }, CHAIN_OPTIONS, rng);
    }, 2);
    const stored = await sampleActions(policy, { state: gradObs }, CHAIN_OPTIONS, rng);
    const chains = tf.tensor4d(stored.chains, [GRAD_CHAINS, STEPS + 1, HORIZON, ACTION_DIM]);
    const mask = tf.tensor2d(stored.denoiseInds, [GRAD_CHAINS, STEPS]);
    const oldLogProb = tf.tidy(() => tf.sum(tf.slice(tf.tensor3d(stored.logProbs, [GRAD_CHAINS, HORIZON, ACTION_DIM]), [0, 0, 0], [GRAD_CHAINS, 8, ACTION_DIM]), [1, 2]));
    const advantages = tf.tensor1d(rng.fillNormal(new Float32Array(GRAD_CHAINS)));
    const returns = tf.tensor1d(rng.fillNormal(new Float32Array(GRAD_CHAINS)));
    held.push(chains, mask, oldLogProb, advantages, returns);
    const variables = new Map([...policy.namedVariables()].filter(([name]) => !name.startsWith('noise_head.')));
    const batch = { obs: { state: gradObs }, chains, mask, oldLogProb, advantages, returns };
    const grad = await timeAgainstPeak(3, 2, ppoStyleStep(policy, batch, CHAIN_OPTIONS, variables, optimizer, chainLogProb));
    const velocity = velocityMacs(options);
    const decisionFlops = 2 * (encoderMacs(options) + denseMacs(options, 'value.') + STEPS * velocity);
    // One velocity call per chain (hybrid recompute), the encoder and the value head, forward and two backward matmuls each.
    const gradFlops = 3 * 2 * (velocity + encoderMacs(options) + denseMacs(options, 'value.')) * GRAD_CHAINS;
    const parameters = [...policy.namedVariables()].filter(([name]) => name.startsWith('velocity.')).reduce((sum, [, variable]) => sum + variable.size, 0);
    console.error(`  ${backend}: ${label} [${unetDims}] sampling ${(sampleSeconds * 1000).toFixed(0)} ms per ${SAMPLE_BATCH} decisions, gradient step ${(grad.seconds * 1000).toFixed(0)} ms on ${GRAD_CHAINS} chains`);
    const share = (flops: number, seconds: number) => `${((100 * flops) / seconds / 1e9 / grad.peak).toFixed(0)}% of the matmul rate (${grad.peak.toFixed(1)} GFLOP/s, median of 3)`;
    const sizes = `${(velocity / 1e6).toFixed(2)} M multiply-adds per velocity call, ${(parameters / 1e6).toFixed(2)} M velocity-net parameters`;
    return [
      { group: 'policy', metric: `${label}_decisions_per_s`, value: SAMPLE_BATCH / sampleSeconds, unit: 'decisions/s', backend, note: note(options, SAMPLE_BATCH, `sampling incl. readback; ${sizes}`) },
      { group: 'policy', metric: `${label}_achieved_gflops`, value: (decisionFlops * SAMPLE_BATCH) / sampleSeconds / 1e9, unit: 'GFLOP/s', backend, note: note(options, SAMPLE_BATCH, `${(decisionFlops / 1e6).toFixed(1)} MFLOP per decision; ${share(decisionFlops * SAMPLE_BATCH, sampleSeconds)}`) },
      { group: 'policy', metric: `${label}_grad_samples_per_s`, value: GRAD_CHAINS / grad.seconds, unit: 'samples/s', backend, note: note(options, GRAD_CHAINS, 'one-step log-prob recompute + backward + Adam') },
      { group: 'policy', metric: `${label}_achieved_gflops_grad`, value: gradFlops / grad.seconds / 1e9, unit: 'GFLOP/s', backend, note: note(options, GRAD_CHAINS, `${(gradFlops / 1e9).toFixed(2)} GFLOP per step; ${(100 * grad.share(gradFlops)).toFixed(0)}% of the matmul rate`) },
    ];
  } finally {
    tf.dispose(held);
    optimizer.dispose();
    policy.dispose();
  }
}

/** UNet1D rows at seed 003's chunking, for the default widths and twice them. */
export async function benchUnet1d(backend: NodeBackend): Promise<BenchRow[]> {
  await useNodeBackend(backend);
  const rows: BenchRow[] = [];
  for (const variant of VARIANTS) rows.push(...(await benchVariant(backend, variant.label, variant.unetDims)));
  return rows;
}
