/**
 * `npm run bench -- ppo`: PPO update throughput and the rollout/update split of an
 * iteration on lift (in-process envs, wasm), with the shipped checkpoints' network sizes,
 * plus where the rollout goes: env chunks, value bootstraps and one decision's policy call.
 */
import { applyOverrides, defaultConfig, validateConfig, type RunConfig } from '../../core/config';
import type { BatchEnv } from '../../core/envs/batch-env';
import { FlowPolicy } from '../../core/policy/flow-policy';
import { MinMaxNormalizer } from '../../core/policy/normalizer';
import type { PolicyBundle } from '../../core/policy/policy-bundle';
import { InThreadBatchEnv } from '../../core/envs/in-thread-batch-env';
import { createRng } from '../../core/random';
import { logProbSliceFromConfig, policyOptionsFromConfig, samplerOptionsAt } from '../../core/rl/policy-setup';
import { sampleDecision, valuesForObs } from '../../core/rl/rollout-policy';
import { Run } from '../../core/run/run';
import { loadMujocoNode } from '../mujoco-node';
import { useNodeBackend } from '../node-backend';
import type { BenchRow } from './bench-row';

/** The shipped checkpoints' sizes (scripts/reproduce-checkpoints.sh). */
export const SHIPPED_ARCH = ['policy.hidden=128,128,128', 'policy.encoder_hidden=128,128', 'policy.value_hidden=128,128'];

const MEASURED_ITERATIONS = 3;
/** Repetitions of each timed policy call (after as many warm-up calls). */
const CALL_REPEATS = 30;

/** Time spent in env chunks, and how many chunks ended in a truncation. */
interface EnvTiming {
  seconds: number;
  truncatedChunks: number;
}

/**
 * Delegates to `env`, timing stepChunk. A chunk in which some env truncates without
 * terminating costs collect-rollout one V(final_obs) call (auto-reset keeps every env alive).
 */
function timedEnv(env: BatchEnv, timing: EnvTiming): BatchEnv {
  return {
    numEnvs: env.numEnvs,
    obsDim: env.obsDim,
    actionDim: env.actionDim,
    reset: (seeds) => env.reset(seeds),
    stepChunk: async (actions, nSteps, gamma) => {
      const started = performance.now();
      const result = await env.stepChunk(actions, nSteps, gamma);
      timing.seconds += (performance.now() - started) / 1000;
      if (result.truncated.some((flag, envIndex) => flag && !result.terminated[envIndex])) timing.truncatedChunks++;
      return result;
    },
    drainEpisodes: () => env.drainEpisodes(),
    metrics: () => env.metrics(),
    snapshot: () => env.snapshot(),
    restore: (snapshot) => env.restore(snapshot),
    dispose: () => env.dispose(),
  };
}

/** Median milliseconds of `call` over CALL_REPEATS runs, after as many warm-up runs. */
async function medianCallMs(call: () => Promise<unknown>): Promise<number> {
  for (let repeat = 0; repeat < CALL_REPEATS; repeat++) await call();
  const times: number[] = [];
  for (let repeat = 0; repeat < CALL_REPEATS; repeat++) {
    const started = performance.now();
    await call();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

/** The rollout's two policy calls on one batch of observations, as collect-rollout makes them. */
async function policyCallMs(bundle: PolicyBundle, config: RunConfig, actionDim: number): Promise<{ decisionMs: number; valueMs: number }> {
  const { nObsSteps, obsDim } = bundle.policy.options;
  const rng = createRng(5);
  const obs = Float32Array.from({ length: config.num_envs * nObsSteps * obsDim }, () => 2 * rng.uniform() - 1);
  const sampler = samplerOptionsAt(config, 0, 'train');
  const slice = logProbSliceFromConfig(config, actionDim);
  const valueSampler = { ...sampler, method: 'ode', mode: 'eval' } as const;
  const decisionMs = await medianCallMs(() => sampleDecision(bundle, obs, sampler, slice, rng));
  const valueMs = await medianCallMs(() => valuesForObs(bundle, obs, valueSampler, rng));
  return { decisionMs, valueMs };
}

export async function runBench(): Promise<BenchRow[]> {
  const backend = await useNodeBackend('wasm');
  const mj = await loadMujocoNode();
  const config = validateConfig(applyOverrides(defaultConfig(), [
    'task=lift', 'num_envs=16', 'env.steps_per_iteration=16', 'ppo.minibatch_size=64', 'ppo.epochs=4',
    'ppo.critic_warmup_steps=0', `iterations=${MEASURED_ITERATIONS + 1}`, 'eval_episodes=0', 'eval.every=0', 'eval.record_episodes=0', ...SHIPPED_ARCH,
  ]));
  const vectorEnv = new InThreadBatchEnv(mj, { task: 'lift', numEnvs: config.num_envs, recordEpisodes: false });
  const { obsDim } = vectorEnv;
  const actionDim = vectorEnv.actionDim;
  const policy = new FlowPolicy(policyOptionsFromConfig(config, obsDim, actionDim), 0);
  const bundle = {
    policy,
    obsNormalizer: new MinMaxNormalizer({ min: new Array(obsDim).fill(-1), max: new Array(obsDim).fill(1) }),
    actionNormalizer: new MinMaxNormalizer({ min: new Array(actionDim).fill(-1), max: new Array(actionDim).fill(1) }),
  };
  const envTiming: EnvTiming = { seconds: 0, truncatedChunks: 0 };
  const trainer = new Run({ bundle, env: timedEnv(vectorEnv, envTiming), config });
  let rolloutSeconds = 0;
  let updateSeconds = 0;
  let envSteps = 0;
  let calls: { decisionMs: number; valueMs: number };
  try {
    await trainer.step(); // warm-up: kernels compile, optimizer moments appear
    Object.assign(envTiming, { seconds: 0, truncatedChunks: 0 });
    for (let iteration = 0; iteration < MEASURED_ITERATIONS; iteration++) {
      const record = await trainer.step();
      rolloutSeconds += record['perf/rollout_s'] ?? 0;
      updateSeconds += record['perf/update_s'] ?? 0;
      envSteps += record['perf/env_steps_per_s']! * record['perf/rollout_s']!;
    }
    calls = await policyCallMs(bundle, config, actionDim);
  } finally {
    trainer.dispose();
    policy.dispose();
    vectorEnv.dispose();
  }
  const decisions = config.num_envs * config.env.steps_per_iteration;
  const note = `obs_dim=${obsDim} horizon=${config.policy.horizon} action_dim=${actionDim} hidden=[${config.policy.hidden}] K=${config.policy.denoise_steps} batch=${decisions} decisions (minibatch ${config.ppo.minibatch_size} x ${config.ppo.epochs} epochs), ${MEASURED_ITERATIONS} iterations`;
  // One bootstrap per rollout plus one per chunk with a truncation; their share is estimated from the timed call.
  const valueCalls = MEASURED_ITERATIONS + envTiming.truncatedChunks;
  const callNote = `${note}; ${config.num_envs} envs per call, value_on=${config.policy.value_on}, median of ${CALL_REPEATS}`;
  return [
    { group: 'ppo', metric: 'update_samples_per_s', value: (decisions * config.ppo.epochs * MEASURED_ITERATIONS) / updateSeconds, unit: 'samples/s', task: 'lift', backend, note },
    { group: 'ppo', metric: 'rollout_fraction', value: rolloutSeconds / (rolloutSeconds + updateSeconds), unit: 'fraction', task: 'lift', backend, note: `${note}; rollout ${rolloutSeconds.toFixed(2)} s, update ${updateSeconds.toFixed(2)} s, ${Math.round(envSteps)} env steps` },
    { group: 'ppo', metric: 'rollout_s_per_iteration', value: rolloutSeconds / MEASURED_ITERATIONS, unit: 's', task: 'lift', backend, note: `${note}; ${config.env.steps_per_iteration} decisions per iteration` },
    { group: 'ppo', metric: 'rollout_env_fraction', value: envTiming.seconds / rolloutSeconds, unit: 'fraction', task: 'lift', backend, note: `${note}; time in env chunks ${envTiming.seconds.toFixed(2)} s` },
    { group: 'ppo', metric: 'rollout_value_fraction', value: (valueCalls * calls.valueMs) / 1000 / rolloutSeconds, unit: 'fraction', task: 'lift', backend, note: `${note}; ${valueCalls} value bootstraps x value_call_ms` },
    { group: 'ppo', metric: 'decision_call_ms', value: calls.decisionMs, unit: 'ms', task: 'lift', backend, note: `${callNote}; chains and reduced log-prob` },
    { group: 'ppo', metric: 'value_call_ms', value: calls.valueMs, unit: 'ms', task: 'lift', backend, note: `${callNote}; V for a bootstrap` },
  ];
}
