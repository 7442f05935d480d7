import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMujocoNode } from '../../cli/mujoco-node';
import { useNodeBackend } from '../../cli/node-backend';
import { InThreadBatchEnv } from '../envs/in-thread-batch-env';
import type { Mujoco } from '../envs/mujoco-types';
import { changedParameters, tinyConfig, weightSnapshot } from '../rl/fixtures/test-support';
import { freshBundle } from './fresh-bundle';
import { Run } from './run';
import { runEnvConfig } from './run-env-config';
import { FlowLearner } from '../rl/flow-family';

let mj: Mujoco;
beforeAll(async () => {
  await useNodeBackend('wasm');
  mj = await loadMujocoNode();
});
const opened: InThreadBatchEnv[] = [];
afterAll(async () => {
  for (const env of opened) await env.dispose();
});

/** Parameters one PPO iteration of a state MLP policy changed, with freeze_encoder set as given. */
async function changedByOneIteration(freeze: 'true' | 'false' | 'auto'): Promise<string[]> {
  const config = tinyConfig(['task=lift', 'policy.encoder_hidden=16', 'actor_lr=1e-3', 'critic_lr=1e-3', 'env.steps_per_iteration=3', `policy.freeze_encoder=${freeze}`]);
  const env = new InThreadBatchEnv(mj, runEnvConfig(config, 'train', false));
  opened.push(env);
  const bundle = freshBundle(config, await env.reset([1, 2, 3, 4]), env.obsDim, env.actionDim);
  expect(bundle.policy.options.obsEncoder).toBe('state');
  const run = new Run({ learner: new FlowLearner(bundle, config), env, config, clock: () => 0 });
  try {
    const before = await weightSnapshot(bundle);
    await run.step();
    return changedParameters(before, await weightSnapshot(bundle));
  } finally {
    run.dispose();
    bundle.policy.dispose();
  }
}

describe('policy.freeze_encoder on a state MLP encoder (ReinFlow freeze_visual_encoder)', () => {
  it('true keeps the encoder fixed while PPO moves the velocity net', async () => {
    const changed = await changedByOneIteration('true');
    expect(changed.some((name) => name.startsWith('velocity.'))).toBe(true);
    expect(changed.filter((name) => name.startsWith('encoder.'))).toEqual([]);
  });

  it('false, and auto on state observations, train the encoder too', async () => {
    for (const freeze of ['false', 'auto'] as const) {
      const changed = await changedByOneIteration(freeze);
      expect(changed.some((name) => name.startsWith('encoder.'))).toBe(true);
      expect(changed.some((name) => name.startsWith('velocity.'))).toBe(true);
    }
  });
});
