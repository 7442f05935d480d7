/**
 * `npm run bench -- ppo`: PPO update throughput and the rollout/update split of an
 * iteration on lift (in-process envs, wasm), with the shipped checkpoints' network sizes.
 */
import { applyOverrides, defaultConfig, validateConfig } from '../../core/config';
import { VectorEnv } from '../../core/envs/vector-env';
import { FlowPolicy } from '../../core/policy/flow-policy';
import { MinMaxNormalizer } from '../../core/policy/normalizer';
import { chunkEnvFromVectorEnv } from '../../core/rl/chunk-env';
import { policyOptionsFromConfig } from '../../core/rl/policy-setup';
import { PpoTrainer } from '../../core/rl/trainer';
import { loadMujocoNode } from '../mujoco-node';
import { useNodeBackend } from '../node-backend';
import type { BenchRow } from './bench-row';

/** The shipped checkpoints' sizes (scripts/reproduce-checkpoints.sh). */
export const SHIPPED_ARCH = ['policy.hidden=128,128,128', 'policy.encoder_hidden=128,128', 'policy.value_hidden=128,128'];

const MEASURED_ITERATIONS = 3;

export async function runBench(): Promise<BenchRow[]> {
  const backend = await useNodeBackend('wasm');
  const mj = await loadMujocoNode();
  const config = validateConfig(applyOverrides(defaultConfig(), [
    'task=lift', 'num_envs=16', 'env.steps_per_iteration=16', 'ppo.minibatch_size=64', 'ppo.epochs=4',
    'ppo.critic_warmup_steps=0', `iterations=${MEASURED_ITERATIONS + 1}`, 'eval_episodes=0', 'eval.every=0', 'eval.record_episodes=0', ...SHIPPED_ARCH,
  ]));
  const vectorEnv = new VectorEnv(mj, { task: 'lift', numEnvs: config.num_envs, recordEpisodes: false });
  const { obsDim } = vectorEnv;
  const actionDim = vectorEnv.config.actionDim;
  const policy = new FlowPolicy(policyOptionsFromConfig(config, obsDim, actionDim), 0);
  const bundle = {
    policy,
    obsNormalizer: new MinMaxNormalizer({ min: new Array(obsDim).fill(-1), max: new Array(obsDim).fill(1) }),
    actionNormalizer: new MinMaxNormalizer({ min: new Array(actionDim).fill(-1), max: new Array(actionDim).fill(1) }),
  };
  const trainer = new PpoTrainer({ bundle, env: chunkEnvFromVectorEnv(vectorEnv), config });
  let rolloutSeconds = 0;
  let updateSeconds = 0;
  let envSteps = 0;
  try {
    await trainer.step(); // warm-up: kernels compile, optimizer moments appear
    for (let iteration = 0; iteration < MEASURED_ITERATIONS; iteration++) {
      const record = await trainer.step();
      rolloutSeconds += record['perf/rollout_s'] ?? 0;
      updateSeconds += record['perf/update_s'] ?? 0;
      envSteps += record['perf/env_steps_per_s']! * record['perf/rollout_s']!;
    }
  } finally {
    trainer.dispose();
    policy.dispose();
    vectorEnv.dispose();
  }
  const decisions = config.num_envs * config.env.steps_per_iteration;
  const note = `obs_dim=${obsDim} horizon=${config.policy.horizon} action_dim=${actionDim} hidden=[${config.policy.hidden}] K=${config.policy.denoise_steps} batch=${decisions} decisions (minibatch ${config.ppo.minibatch_size} x ${config.ppo.epochs} epochs), ${MEASURED_ITERATIONS} iterations`;
  return [
    { group: 'ppo', metric: 'update_samples_per_s', value: (decisions * config.ppo.epochs * MEASURED_ITERATIONS) / updateSeconds, unit: 'samples/s', task: 'lift', backend, note },
    { group: 'ppo', metric: 'rollout_fraction', value: rolloutSeconds / (rolloutSeconds + updateSeconds), unit: 'fraction', task: 'lift', backend, note: `${note}; rollout ${rolloutSeconds.toFixed(2)} s, update ${updateSeconds.toFixed(2)} s, ${Math.round(envSteps)} env steps` },
  ];
}
