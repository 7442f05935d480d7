import { availableParallelism } from 'node:os';
import { beforeAll, describe, expect, it } from 'vitest';
import { applyOverrides, defaultConfig, runOverrides, type RunConfig } from '../core/config';
import { ShardedVectorEnv } from '../core/envs/sharded-vector-env';
import { runEnvConfig } from '../core/run/run-env-config';
import { nodeRunPorts } from './node-run-ports';
import { loadRunCheckpoint, prepareRuntime } from './run-setup';

const LIFT_BC = 'public/checkpoints/lift-bc.flowtune';
/** What `npm run train -- task=lift …` parses before the checkpoint is read (unvalidated). */
const parsed = (overrides: string[]): RunConfig => applyOverrides(defaultConfig(), ['task=lift', ...overrides]);

beforeAll(async () => {
  await prepareRuntime();
});

async function load(overrides: string[] | ReturnType<typeof runOverrides>): Promise<RunConfig> {
  const list = Array.isArray(overrides) ? overrides : [...overrides.overrides];
  const { policy, config } = loadRunCheckpoint(LIFT_BC, parsed(list), overrides);
  policy.dispose();
  return config;
}

async function loadError(overrides: string[]): Promise<Error> {
  try {
    await load(overrides);
  } catch (error) {
    return error as Error;
  }
  throw new Error(`expected ${overrides.join(' ')} to be rejected`);
}

describe('loadRunCheckpoint', () => {
  it('takes the architecture, K and executed steps from the checkpoint when nothing overrides them', async () => {
    const config = await load([]);
    expect(config.policy.hidden).toEqual([128, 128, 128]);
    expect([config.policy.horizon, config.policy.n_obs_steps, config.policy.denoise_steps, config.policy.n_action_steps]).toEqual([8, 2, 4, 4]);
  });

  it('honours K and executed steps given on the command line or by a preset', async () => {
    const config = await load(['policy.denoise_steps=2', 'policy.n_action_steps=8']);
    expect([config.policy.denoise_steps, config.policy.n_action_steps]).toEqual([2, 8]);
    expect((await load(runOverrides('reinflow-steps-16', []))).policy.denoise_steps).toBe(16);
    // An override equal to the checkpoint's architecture is fine.
    expect((await load(['policy.hidden=128,128,128'])).policy.hidden).toEqual([128, 128, 128]);
  });

  it('still checks executed steps against the checkpoint\'s horizon', async () => {
    const error = await loadError(['policy.n_action_steps=9']);
    expect(error.name).toBe('ConfigError');
    expect(error.message).toContain('policy.n_action_steps (9) must be ≤ policy.horizon (8)');
  });

  it('rejects overrides that contradict the checkpoint, naming both values', async () => {
    const cases: [string, string][] = [
      ['policy.velocity_net=ditx', 'policy.velocity_net=mlp'],
      ['policy.value_on=expert', 'policy.value_on=obs'],
      ['policy.horizon=16', 'policy.horizon=8'],
      ['env.control_mode=joint_delta_pos', 'env.control_mode=ee_delta_pos'],
    ];
    for (const [override, has] of cases) {
      const error = await loadError([override]);
      expect(error.name).toBe('ConfigError');
      expect(error.message).toBe(`${override} contradicts the checkpoint, which has ${has}; drop the override or pretrain a new checkpoint`);
    }
  });
});

/** The training env a Node run opens for this config. */
function openTrainingEnv(config: RunConfig) {
  return nodeRunPorts(config).openEnv(runEnvConfig(config, 'train', false), 'train');
}

describe('Node run ports: training envs', () => {
  it('gives env.workers=0 one env thread per available core, at most num_envs', async () => {
    const config = applyOverrides(defaultConfig(), ['task=reach', 'num_envs=4', 'env.workers=0']);
    const expected = Math.min(availableParallelism(), config.num_envs);
    const env = await openTrainingEnv(config);
    try {
      if (expected > 1) {
        expect(env).toBeInstanceOf(ShardedVectorEnv);
        expect((env as ShardedVectorEnv).numWorkers).toBe(expected);
      } else {
        expect(env).not.toBeInstanceOf(ShardedVectorEnv);
      }
      expect(env.numEnvs).toBe(4);
    } finally {
      await env.dispose();
    }
  });

  it('steps env.workers=1 in this thread', async () => {
    const env = await openTrainingEnv(applyOverrides(defaultConfig(), ['task=reach', 'num_envs=2', 'env.workers=1']));
    try {
      expect(env).not.toBeInstanceOf(ShardedVectorEnv);
    } finally {
      await env.dispose();
    }
  });
});
