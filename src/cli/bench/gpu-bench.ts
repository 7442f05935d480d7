/**
 * `npm run bench -- gpu`: decisions/s and gradient samples/s of the benched MLP and DiT-X policies
 * (policy-bench.ts, policy-ditx-bench.ts) at their own batch sizes, at 1024 and 4096, and of a
 * DiT-X 128×4, on every tfjs backend that starts in Node: wasm, cpu (its own sizes only: the pure-JS
 * backend is slow) and webgpu through Dawn. A backend that does not start gets one row saying why.
 */
import * as tf from '@tensorflow/tfjs';
import { chainLogProb, type ChainLogProbOptions } from '../../core/flow/chain-logprob';
import { sampleActions } from '../../core/flow/sampler';
import { FlowPolicy } from '../../core/policy/flow-policy';
import { obsFrameSize, resolveFlowPolicyOptions, type FlowPolicyOptions } from '../../core/policy/options';
import { createRng, type Rng } from '../../core/random';
import { NamedAdam } from '../../core/rl/adam';
import { timeCalls, type TimingPlan } from '../../core/backend/time-calls';
import { adapterName } from '../dawn-adapter';
import { nodeWebgpuAdapter, useNodeBackend, type NodeBackend } from '../node-backend';
import { ppoStyleStep, storedBatch } from './bench-grad-step';
import type { BenchRow } from './bench-row';
import { MLP_ARCHITECTURE, MLP_CHAIN_OPTIONS, MLP_GRAD_CHAINS, MLP_SAMPLE_BATCH } from './policy-bench';
import { DITX_ARCHITECTURE, DITX_CHAIN_OPTIONS, DITX_GRAD_CHAINS, DITX_SAMPLE_BATCH } from './policy-ditx-bench';

const BIG_BATCHES = [1024, 4096];

/**
 * A warmup call (webgpu compiles its shaders for each new shape), then up to 3 timed calls within
 * 1.5 s. wasm and cpu compile nothing, so their big batches are timed without a warmup call.
 */
function timingPlan(backend: NodeBackend, batch: number): TimingPlan {
  return { warmup: backend === 'webgpu' || batch < 1024 ? 1 : 0, repeats: 3, budgetMs: 1500 };
}

interface PolicyCase {
  name: string;
  architecture: FlowPolicyOptions;
  chainOptions: ChainLogProbOptions;
  decisionBatches: number[];
  gradBatches: number[];
  /** Batches timed on webgpu only: on wasm they take up to a minute per call, or exhaust its 4 GB memory. */
  gpuOnlyBatches?: number[];
  /** Gradient steps on stored encoder features with the encoder frozen (point-cloud fine-tuning). */
  frozenEncoder: boolean;
}

const DITX_128X4 = resolveFlowPolicyOptions({ ...DITX_ARCHITECTURE, ditxDim: 128, ditxDepth: 4 });

const CASES: PolicyCase[] = [
  { name: 'mlp', architecture: MLP_ARCHITECTURE, chainOptions: MLP_CHAIN_OPTIONS, decisionBatches: [MLP_SAMPLE_BATCH, ...BIG_BATCHES], gradBatches: [MLP_GRAD_CHAINS, 4096], frozenEncoder: false },
  { name: 'ditx', architecture: DITX_ARCHITECTURE, chainOptions: DITX_CHAIN_OPTIONS, decisionBatches: [DITX_SAMPLE_BATCH, ...BIG_BATCHES], gradBatches: [DITX_GRAD_CHAINS, ...BIG_BATCHES], frozenEncoder: true },
  {
    name: 'ditx128x4', architecture: DITX_128X4, chainOptions: DITX_CHAIN_OPTIONS, decisionBatches: [DITX_SAMPLE_BATCH, ...BIG_BATCHES],
    gradBatches: [DITX_GRAD_CHAINS, ...BIG_BATCHES], frozenEncoder: true, gpuOnlyBatches: BIG_BATCHES,
  },
];

function describe(policyCase: PolicyCase, batch: number): string {
  const o = policyCase.architecture;
  const net = o.velocityNet === 'ditx' ? `ditx ${o.ditxDim}x${o.ditxDepth} heads=${o.ditxHeads} pointcloud N=${o.numPoints}` : `mlp velocity_hidden=[${o.velocityHidden}] obs_dim=${o.obsDim}`;
  return `${net} H=${o.horizon} K=${policyCase.chainOptions.steps} batch=${batch}`;
}

function randomObs(architecture: FlowPolicyOptions, rows: number, rng: Rng): tf.Tensor2D {
  const size = architecture.nObsSteps * obsFrameSize(architecture);
  return tf.tensor2d(rng.fillNormal(new Float32Array(rows * size)).map((value) => 0.5 * value), [rows, size]);
}

/** Seconds per decision batch: upload, sampling (points encoded each decision), readback. */
async function decisionSeconds(policy: FlowPolicy, policyCase: PolicyCase, batch: number, rng: Rng, plan: TimingPlan): Promise<number> {
  const size = policyCase.architecture.nObsSteps * obsFrameSize(policyCase.architecture);
  const obs = rng.fillNormal(new Float32Array(batch * size)).map((value) => 0.5 * value);
  return timeCalls(async () => {
    const state = tf.tensor2d(obs, [batch, size]);
    try {
      await sampleActions(policy, { state }, policyCase.chainOptions, rng, policyCase.chainOptions);
    } finally {
      state.dispose();
    }
  }, plan);
}

/** Seconds per PPO-style gradient step on `batch` stored chains (one-step recompute, backward, Adam). */
async function gradStepSeconds(policy: FlowPolicy, policyCase: PolicyCase, batch: number, rng: Rng, plan: TimingPlan): Promise<number> {
  const state = randomObs(policyCase.architecture, batch, rng);
  const features = policyCase.frozenEncoder ? policy.encode({ state }) : undefined;
  const stored = await storedBatch(policy, features ? { features } : { state }, batch, policyCase.chainOptions, rng);
  const optimizer = new NamedAdam();
  const skip = (name: string) => name.startsWith('noise_head.') || (policyCase.frozenEncoder && name.startsWith('encoder.'));
  const variables = new Map([...policy.namedVariables()].filter(([name]) => !skip(name)));
  try {
    return await timeCalls(ppoStyleStep(policy, stored, policyCase.chainOptions, variables, optimizer, chainLogProb), plan);
  } finally {
    tf.dispose([state, ...(features ? [features] : []), stored.chains, stored.mask, stored.oldLogProb, stored.advantages, stored.returns]);
    optimizer.dispose();
  }
}

function backendLabel(backend: NodeBackend): string {
  const adapter = backend === 'webgpu' ? nodeWebgpuAdapter() : undefined;
  return adapter ? `webgpu (${adapterName(adapter)})` : backend;
}

async function benchCase(backend: NodeBackend, policyCase: PolicyCase): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const label = backendLabel(backend);
  // cpu times each list's first (the benched) size only; wasm all but the webgpu-only ones.
  const timed = (batch: number, index: number) => backend === 'webgpu' || (backend === 'cpu' ? index === 0 : !policyCase.gpuOnlyBatches?.includes(batch));
  const policy = new FlowPolicy(policyCase.architecture, 0);
  const rng = createRng(5);
  try {
    for (const batch of policyCase.decisionBatches.filter(timed)) {
      const seconds = await decisionSeconds(policy, policyCase, batch, rng, timingPlan(backend, batch));
      console.error(`  ${label}: ${policyCase.name} decisions ${(seconds * 1000).toFixed(1)} ms per batch of ${batch}`);
      rows.push({ group: 'gpu', metric: `${policyCase.name}_decisions_per_s`, value: batch / seconds, unit: 'decisions/s', backend: label, note: `${describe(policyCase, batch)}; sampling incl. upload and readback` });
    }
    for (const batch of policyCase.gradBatches.filter(timed)) {
      const seconds = await gradStepSeconds(policy, policyCase, batch, rng, timingPlan(backend, batch));
      console.error(`  ${label}: ${policyCase.name} gradient step ${(seconds * 1000).toFixed(0)} ms on ${batch} chains`);
      const onFeatures = policyCase.frozenEncoder ? ' on stored encoder features' : '';
      rows.push({ group: 'gpu', metric: `${policyCase.name}_grad_samples_per_s`, value: batch / seconds, unit: 'samples/s', backend: label, note: `${describe(policyCase, batch)}; one-step log-prob recompute${onFeatures} + value MSE, backward, Adam` });
    }
  } finally {
    policy.dispose();
  }
  return rows;
}

/** Every case on one backend, or one row saying it did not start. */
async function benchBackend(backend: NodeBackend): Promise<BenchRow[]> {
  try {
    await useNodeBackend(backend);
  } catch (error) {
    const reason = (error as Error).message;
    console.error(`  ${backend} did not start: ${reason}`);
    return [{ group: 'gpu', metric: 'backend_started', value: 0, unit: 'bool', backend, note: `${backend} did not start: ${reason}` }];
  }
  const rows: BenchRow[] = [];
  // The pure-JS cpu backend takes tens of seconds per DiT-X call, so it times the MLP alone.
  for (const policyCase of backend === 'cpu' ? CASES.filter((entry) => entry.name === 'mlp') : CASES) {
    try {
      rows.push(...(await benchCase(backend, policyCase)));
    } catch (error) {
      const reason = (error as Error).message;
      console.error(`  ${backend}: ${policyCase.name} failed: ${reason}`);
      rows.push({ group: 'gpu', metric: `${policyCase.name}_failed`, value: 0, unit: 'bool', backend: backendLabel(backend), note: reason });
    }
  }
  if (backend === 'cpu') rows.push({ group: 'gpu', metric: 'rows_skipped', value: 0, unit: 'rows', backend, note: `cpu times the MLP at its benched sizes only: batches ${BIG_BATCHES.join(' and ')} and DiT-X take minutes on the pure-JS backend` });
  if (backend === 'wasm') rows.push({ group: 'gpu', metric: 'rows_skipped', value: 0, unit: 'rows', backend, note: `wasm skips DiT-X 128x4 at batches ${BIG_BATCHES.join(' and ')}: 10 s to a minute per call, and its gradient step at 4096 exhausts the 4 GB wasm memory` });
  return rows;
}

export async function runBench(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const backend of ['webgpu', 'wasm', 'cpu'] as const) rows.push(...(await benchBackend(backend)));
  return rows;
}
