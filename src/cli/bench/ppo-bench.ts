/**
 * `npm run bench -- ppo`: where one default PPO iteration on pick-cube goes (in-process envs,
 * wasm, the shipped checkpoints' network sizes): env stepping, policy inference, value
 * bootstraps, the update's forward, backward, optimizer and data moves, plus the update's
 * throughput and the two rollout policy calls timed on their own.
 */
import { DEFAULT_TASK } from '../../tasks';
import { applyOverrides, defaultConfig, validateConfig, type RunConfig } from '../../core/config';
import { FlowPolicy } from '../../core/policy/flow-policy';
import { MinMaxNormalizer } from '../../core/policy/normalizer';
import type { PolicyBundle } from '../../core/policy/policy-bundle';
import type { MetricRecord } from '../../core/metrics/metric-keys';
import { InThreadBatchEnv } from '../../core/envs/in-thread-batch-env';
import { createRng } from '../../core/random';
import { logProbSliceFromConfig, policyOptionsFromConfig, samplerOptionsAt } from '../../core/rl/policy-setup';
import { sampleDecision, valuesForObs } from '../../core/rl/rollout-policy';
import { Run } from '../../core/run/run';
import { FlowLearner } from '../../core/rl/flow-family';
import { loadMujocoNode } from '../mujoco-node';
import { useNodeBackend } from '../node-backend';
import type { BenchRow } from './bench-row';

/** The shipped checkpoints' sizes (scripts/reproduce-checkpoints.sh). */
export const SHIPPED_ARCH = ['policy.hidden=128,128,128', 'policy.encoder_hidden=128,128', 'policy.value_hidden=128,128'];

const MEASURED_ITERATIONS = 3;
/** Repetitions of each timed policy call (after as many warm-up calls). */
const CALL_REPEATS = 30;

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

/** Split rows: the perf/ metric summed per phase, in iteration order. */
const SPLIT: readonly { phase: string; key: keyof MetricRecord; part: 'rollout' | 'update' }[] = [
  { phase: 'env stepping', key: 'perf/env_s', part: 'rollout' },
  { phase: 'policy inference', key: 'perf/policy_s', part: 'rollout' },
  { phase: 'value bootstraps', key: 'perf/value_s', part: 'rollout' },
  { phase: 'update forward', key: 'perf/forward_s', part: 'update' },
  { phase: 'update backward', key: 'perf/backward_s', part: 'update' },
  { phase: 'optimizer (clip + Adam)', key: 'perf/optimizer_s', part: 'update' },
  { phase: 'data moves', key: 'perf/data_s', part: 'update' },
];

export async function runBench(): Promise<BenchRow[]> {
  const backend = await useNodeBackend('wasm');
  const mj = await loadMujocoNode();
  const task = DEFAULT_TASK;
  const config = validateConfig(applyOverrides(defaultConfig(), [
    `task=${task}`, 'ppo.critic_warmup_steps=0', `iterations=${MEASURED_ITERATIONS + 1}`, 'eval_episodes=0', 'eval.every=0',
    'eval.record_episodes=0', ...SHIPPED_ARCH,
  ]));
  const vectorEnv = new InThreadBatchEnv(mj, { task, numEnvs: config.num_envs, recordEpisodes: false });
  const { obsDim } = vectorEnv;
  const actionDim = vectorEnv.actionDim;
  const policy = new FlowPolicy(policyOptionsFromConfig(config, obsDim, actionDim), 0);
  const bundle = {
    policy,
    obsNormalizer: new MinMaxNormalizer({ min: new Array(obsDim).fill(-1), max: new Array(obsDim).fill(1) }),
    actionNormalizer: new MinMaxNormalizer({ min: new Array(actionDim).fill(-1), max: new Array(actionDim).fill(1) }),
  };
  const run = new Run({ learner: new FlowLearner(bundle, config), env: vectorEnv, config });
  const sums = new Map<keyof MetricRecord, number>();
  let calls: { decisionMs: number; valueMs: number };
  try {
    await run.step(); // warm-up: kernels compile, optimizer moments appear
    for (let iteration = 0; iteration < MEASURED_ITERATIONS; iteration++) {
      const record = await run.step();
      for (const [key, value] of Object.entries(record)) if (key.startsWith('perf/')) sums.set(key as keyof MetricRecord, (sums.get(key as keyof MetricRecord) ?? 0) + value);
    }
    calls = await policyCallMs(bundle, config, actionDim);
  } finally {
    run.dispose();
    policy.dispose();
    vectorEnv.dispose();
  }
  const perIteration = (key: keyof MetricRecord) => (sums.get(key) ?? 0) / MEASURED_ITERATIONS;
  const rollout = perIteration('perf/rollout_s');
  const update = perIteration('perf/update_s');
  const total = rollout + update;
  const decisions = config.num_envs * config.env.steps_per_iteration;
  const note = `obs_dim=${obsDim} horizon=${config.policy.horizon} action_dim=${actionDim} hidden=[${config.policy.hidden}] K=${config.policy.denoise_steps} ${config.noise.method} ${config.noise.mode}, ${config.num_envs} envs x ${config.env.steps_per_iteration} decisions, minibatch ${config.ppo.minibatch_size} x ${config.ppo.epochs} epochs; mean of ${MEASURED_ITERATIONS} iterations`;
  const row = (metric: string, value: number, unit: string, extra = ''): BenchRow => ({ group: 'ppo', metric, value, unit, task, backend, note: extra ? `${extra}; ${note}` : note });
  const rows: BenchRow[] = [row('iteration_s', total, 's', `rollout ${rollout.toFixed(3)} s + update ${update.toFixed(3)} s`)];
  for (const part of ['rollout', 'update'] as const) {
    const partSeconds = part === 'rollout' ? rollout : update;
    let accounted = 0;
    for (const entry of SPLIT.filter((candidate) => candidate.part === part)) {
      const seconds = perIteration(entry.key);
      accounted += seconds;
      rows.push(row(`split: ${entry.phase}`, seconds, 's', `${((100 * seconds) / total).toFixed(1)}% of the iteration`));
    }
    const rest = Math.max(0, partSeconds - accounted);
    rows.push(row(`split: ${part} other`, rest, 's', `${((100 * rest) / total).toFixed(1)}% of the iteration (${part === 'rollout' ? 'observation stacking, buffer writes' : 'advantages, shuffles, bookkeeping'})`));
  }
  rows.push(
    row('update_samples_per_s', (decisions * config.ppo.epochs) / update, 'samples/s', 'chains through recompute + backward + Adam, per second of update'),
    row('env_steps_per_s', perIteration('perf/env_steps_per_s'), 'steps/s', 'rollout env steps over rollout time'),
    row('decision_call_ms', calls.decisionMs, 'ms', `one rollout decision for ${config.num_envs} envs: chains and reduced log-prob, median of ${CALL_REPEATS}`),
    row('value_call_ms', calls.valueMs, 'ms', `one value bootstrap for ${config.num_envs} envs (value_on=${config.policy.value_on}), median of ${CALL_REPEATS}`),
  );
  return rows;
}
