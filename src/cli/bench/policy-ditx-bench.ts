import * as tf from '@tensorflow/tfjs';
import { chainLogProb, type ChainLogProbOptions } from '../../core/flow/chain-logprob';
import { sampleActions } from '../../core/flow/sampler';
import { FlowPolicy } from '../../core/policy/flow-policy';
import { maxPoolPoints, pointFeatures } from '../../core/policy/obs-encoder';
import { obsFeatureDim, obsFrameSize, resolveFlowPolicyOptions } from '../../core/policy/options';
import { createRng } from '../../core/random';
import { NamedAdam } from '../../core/rl/adam';
import { useNodeBackend, type NodeBackend } from '../node-backend';
import type { BenchRow } from './bench-row';
import { timeAgainstPeak, timeIt } from './bench-timing';
import { denseMacs, encoderMacs, velocityMacs } from './policy-flops';
import { ppoStyleStep } from './bench-grad-step';

/** The shipped point-cloud policy (scripts/reproduce-checkpoints.sh, pick-cube-pointcloud): DiT-X 64×2 on 128 points. */
export const DITX_ARCHITECTURE = resolveFlowPolicyOptions({
  obsEncoder: 'pointcloud', numPoints: 128, obsDim: 15, nObsSteps: 2, horizon: 8, actionDim: 4,
  velocityNet: 'ditx', ditxDim: 64, ditxDepth: 2, ditxHeads: 4, encoderHidden: [32, 64], valueHidden: [128, 128], noiseHidden: [128, 64],
});
const architecture = DITX_ARCHITECTURE;
const STEPS = 4;
/** The DiT-X policy's sizes as benched (shared with the gpu group): 16 envs per decision, 256 chains per gradient step. */
export const DITX_SAMPLE_BATCH = 16;
export const DITX_GRAD_CHAINS = 256;
const SAMPLE_BATCH = DITX_SAMPLE_BATCH;
const GRAD_CHAINS = DITX_GRAD_CHAINS;
/** Sampling and log-prob settings of the DiT-X rows: SDE hybrid, K 4, the 4 executed steps scored. */
export const DITX_CHAIN_OPTIONS: ChainLogProbOptions = { method: 'sde', mode: 'hybrid', steps: STEPS, level: 0.5, logprobType: 'chunk', nActionSteps: 4, envActionDim: 4 };
const chainOptions = DITX_CHAIN_OPTIONS;

function note(batch: number, extra: string): string {
  const o = architecture;
  return `ditx ${o.ditxDim}x${o.ditxDepth} heads=${o.ditxHeads} pointcloud N=${o.numPoints} encoder_hidden=[${o.encoderHidden}] n_obs=${o.nObsSteps} H=${o.horizon} K=${STEPS} batch=${batch}; ${extra}`;
}

/**
 * DiT-X at the shipped size: decisions per second as a rollout makes them (16 envs, points encoded
 * each decision), and PPO gradient samples per second on stored encoder features (the frozen
 * encoder of point-cloud fine-tuning), with the matmul FLOPs each achieves against the backend's rate.
 */
export async function benchDitx(backend: NodeBackend): Promise<BenchRow[]> {
  await useNodeBackend(backend);
  const policy = new FlowPolicy(architecture, 0);
  const rng = createRng(1);
  const obsSize = architecture.nObsSteps * obsFrameSize(architecture);
  const sampleObs = tf.tensor2d(rng.fillNormal(new Float32Array(SAMPLE_BATCH * obsSize)).map((v) => 0.5 * v), [SAMPLE_BATCH, obsSize]);
  const gradObs = tf.tensor2d(rng.fillNormal(new Float32Array(GRAD_CHAINS * obsSize)).map((v) => 0.5 * v), [GRAD_CHAINS, obsSize]);
  const features = policy.encode({ state: gradObs });
  const held: tf.Tensor[] = [sampleObs, gradObs, features];
  const optimizer = new NamedAdam();
  try {
    const sampleSeconds = await timeIt(20, async () => {
      await sampleActions(policy, { state: sampleObs }, chainOptions, rng);
    }, 3);
    const stored = await sampleActions(policy, { features }, chainOptions, rng);
    const chains = tf.tensor4d(stored.chains, [GRAD_CHAINS, STEPS + 1, 8, 4]);
    const mask = tf.tensor2d(stored.denoiseInds, [GRAD_CHAINS, STEPS]);
    const oldLogProb = tf.tidy(() => tf.sum(tf.slice(tf.tensor3d(stored.logProbs, [GRAD_CHAINS, 8, 4]), [0, 0, 0], [GRAD_CHAINS, 4, 4]), [1, 2]));
    const advantages = tf.tensor1d(rng.fillNormal(new Float32Array(GRAD_CHAINS)));
    const returns = tf.tensor1d(rng.fillNormal(new Float32Array(GRAD_CHAINS)));
    held.push(chains, mask, oldLogProb, advantages, returns);
    const variables = new Map([...policy.namedVariables()].filter(([name]) => !name.startsWith('noise_head.') && !name.startsWith('encoder.')));
    const batch = { obs: { features }, chains, mask, oldLogProb, advantages, returns };
    // Five rounds of 4 steps, each against the matmul rate measured right after it.
    const grad = await timeAgainstPeak(5, 4, ppoStyleStep(policy, batch, chainOptions, variables, optimizer, chainLogProb));
    const gradSeconds = grad.seconds;
    // PointNet's per-point MLP and max-pool, forward and backward (BC pretraining trains it), with the
    // max-pool's scatter gradient and with tfjs's built-in one, on every frame of the 256 samples.
    const points = tf.tensor3d(rng.fillNormal(new Float32Array(GRAD_CHAINS * architecture.nObsSteps * architecture.numPoints * 3)), [GRAD_CHAINS * architecture.nObsSteps, architecture.numPoints, 3]);
    held.push(points);
    const pointVariables = [...policy.namedVariables()].filter(([name]) => name.startsWith('encoder.points.')).map(([, variable]) => variable);
    const pointNetStep = (pool: (x: tf.Tensor3D) => tf.Tensor) => async () => {
      const { value, grads } = tf.variableGrads(() => tf.sum(pool(pointFeatures(policy.param, architecture, points))) as tf.Scalar, pointVariables);
      await value.data();
      tf.dispose([value, ...Object.values(grads)]);
    };
    const scatterSeconds = await timeIt(4, pointNetStep(maxPoolPoints));
    const builtInSeconds = await timeIt(4, pointNetStep((x) => tf.max(x, 1)));
    const peak = grad.peak;
    const decisionFlops = 2 * (encoderMacs(architecture) + denseMacs(architecture, 'value.') + STEPS * velocityMacs(architecture));
    // One velocity call per chain (hybrid recompute) and the value head, forward and two backward matmuls each.
    const gradFlops = 3 * 2 * (velocityMacs(architecture) + denseMacs(architecture, 'value.')) * GRAD_CHAINS;
    console.error(`  ${backend}: DiT-X sampling ${(sampleSeconds * 1000).toFixed(1)} ms per ${SAMPLE_BATCH} decisions, gradient step ${(gradSeconds * 1000).toFixed(0)} ms on ${GRAD_CHAINS} chains`);
    const share = (flops: number, seconds: number) => `${((100 * flops) / seconds / 1e9 / peak).toFixed(0)}% of matmul_peak_gflops (${peak.toFixed(1)}, median of 5)`;
    return [
      { group: 'policy', metric: 'ditx_decisions_per_s', value: SAMPLE_BATCH / sampleSeconds, unit: 'decisions/s', backend, note: note(SAMPLE_BATCH, 'sampling incl. PointNet and readback') },
      { group: 'policy', metric: 'ditx_achieved_gflops', value: (decisionFlops * SAMPLE_BATCH) / sampleSeconds / 1e9, unit: 'GFLOP/s', backend, note: note(SAMPLE_BATCH, `${(decisionFlops / 1e6).toFixed(2)} MFLOP per decision; ${share(decisionFlops * SAMPLE_BATCH, sampleSeconds)}`) },
      { group: 'policy', metric: 'ditx_grad_samples_per_s', value: GRAD_CHAINS / gradSeconds, unit: 'samples/s', backend, note: note(GRAD_CHAINS, `one-step recompute on stored features (obs features ${obsFeatureDim(architecture)}) + backward + Adam`) },
      { group: 'policy', metric: 'pointnet_grad_ms', value: scatterSeconds * 1000, unit: 'ms', backend, note: note(GRAD_CHAINS, `per-point MLP + max-pool forward and backward over ${GRAD_CHAINS * architecture.nObsSteps} frames of ${architecture.numPoints} points, max-pool gradient scattered to each channel's winner`) },
      { group: 'policy', metric: 'pointnet_grad_ms_builtin_max', value: builtInSeconds * 1000, unit: 'ms', backend, note: note(GRAD_CHAINS, `the same with tfjs's built-in max gradient (broadcast compare); ${(builtInSeconds / scatterSeconds).toFixed(2)}x the scatter's time`) },
      { group: 'policy', metric: 'ditx_achieved_gflops_grad', value: gradFlops / gradSeconds / 1e9, unit: 'GFLOP/s', backend, note: note(GRAD_CHAINS, `${(gradFlops / 1e9).toFixed(3)} GFLOP per step; ${(100 * grad.share(gradFlops)).toFixed(0)}% of the matmul rate (median of 5 rounds, each step timed against a 1024³ matmul right after it; median rate ${peak.toFixed(1)} GFLOP/s)`) },
    ];
  } finally {
    tf.dispose(held);
    optimizer.dispose();
    policy.dispose();
  }
}
