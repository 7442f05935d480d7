import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBundle } from '../core/checkpoint/policy-checkpoint';
import { useNodeBackend } from './node-backend';
import { decodeGaussianCheckpoint } from '../core/gaussian/gaussian-checkpoint';

/** The files `npm run reproduce` writes into public/checkpoints, which the studio and the README rely on. */
const SHIPPED = [
  { file: 'reach-bc.flowtune', task: 'reach', stage: 'bc' },
  { file: 'lift-bc.flowtune', task: 'lift', stage: 'bc' },
  { file: 'pick-cube-bc.flowtune', task: 'pick-cube', stage: 'bc' },
  { file: 'lift-ppo.flowtune', task: 'lift', stage: 'ppo' },
  { file: 'pick-cube-ppo.flowtune', task: 'pick-cube', stage: 'ppo' },
  { file: 'stack-cube-bc.flowtune', task: 'stack-cube', stage: 'bc' },
  { file: 'stack-cube-ppo.flowtune', task: 'stack-cube', stage: 'ppo' },
  { file: 'peg-insertion-bc.flowtune', task: 'peg-insertion', stage: 'bc' },
  { file: 'peg-insertion-ppo.flowtune', task: 'peg-insertion', stage: 'ppo' },
] as const;

beforeAll(async () => {
  await useNodeBackend('wasm');
});

describe('shipped checkpoints', () => {
  for (const shipped of SHIPPED) {
    it(`${shipped.file} passes the full reader for task '${shipped.task}' and is stage '${shipped.stage}'`, () => {
      const bytes = new Uint8Array(readFileSync(`public/checkpoints/${shipped.file}`));
      const loaded = loadBundle(bytes, { expectedTask: shipped.task });
      try {
        expect(loaded.metadata.task).toBe(shipped.task);
        expect(loaded.metadata.stage).toBe(shipped.stage);
        if (shipped.stage === 'bc') {
          // Deliberately imperfect, so online RL has room: 20–60% on the 100-episode evaluation pretraining stored.
          expect(loaded.metadata.eval.episodes).toBe(100);
          expect(loaded.metadata.eval.success_rate).toBeGreaterThanOrEqual(0.2);
          expect(loaded.metadata.eval.success_rate).toBeLessThanOrEqual(0.6);
        } else {
          expect(loaded.metadata.training.env_steps).toBeGreaterThan(0);
        }
      } finally {
        loaded.bundle.policy.dispose();
      }
    });
  }

  it('hopper-bc.flowtune, flow BC on the recipe\'s medium data, stored a return on 100 episodes below the data\'s', () => {
    const loaded = loadBundle(new Uint8Array(readFileSync('public/checkpoints/hopper-bc.flowtune')), { expectedTask: 'hopper' });
    try {
      expect(loaded.metadata.stage).toBe('bc');
      expect(loaded.metadata.eval.episodes).toBe(100);
      // Pretraining stored 911; the medium data's own episodes return 1590 on average. A hopper that
      // falls at once collects about 1 per step it stays healthy, far below 500.
      expect(loaded.metadata.eval.mean_return).toBeGreaterThan(500);
      expect(loaded.metadata.eval.mean_return).toBeLessThan(1590);
    } finally {
      loaded.bundle.policy.dispose();
    }
  });

  it('walker2d-bc.flowtune, flow BC on walker2d\'s medium data, stored a return on 100 episodes below the data\'s', () => {
    const loaded = loadBundle(new Uint8Array(readFileSync('public/checkpoints/walker2d-bc.flowtune')), { expectedTask: 'walker2d' });
    try {
      expect(loaded.metadata.stage).toBe('bc');
      expect(loaded.metadata.eval.episodes).toBe(100);
      // Pretraining stored 809; the medium data's own episodes return 1241 on average. A walker that
      // falls within its first few dozen steps collects well under 400.
      expect(loaded.metadata.eval.mean_return).toBeGreaterThan(400);
      expect(loaded.metadata.eval.mean_return).toBeLessThan(1241);
    } finally {
      loaded.bundle.policy.dispose();
    }
  });

  it('hopper-ppo.flowtune, flow PPO from hopper-bc.flowtune (locomotion-reinflow, seed 0), decodes for hopper after its 1M env steps', () => {
    const loaded = loadBundle(new Uint8Array(readFileSync('public/checkpoints/hopper-ppo.flowtune')), { expectedTask: 'hopper' });
    try {
      expect(loaded.metadata.stage).toBe('ppo');
      expect(loaded.metadata.training.env_steps).toBe(1_003_979);
    } finally {
      loaded.bundle.policy.dispose();
    }
  });

  it('walker2d-ppo.flowtune, flow PPO from walker2d-bc.flowtune (locomotion-reinflow with walker2d\'s lr, seed 0), decodes for walker2d after its 1M env steps', () => {
    const loaded = loadBundle(new Uint8Array(readFileSync('public/checkpoints/walker2d-ppo.flowtune')), { expectedTask: 'walker2d' });
    try {
      expect(loaded.metadata.stage).toBe('ppo');
      expect(loaded.metadata.training.env_steps).toBe(1_004_214);
    } finally {
      loaded.bundle.policy.dispose();
    }
  });

  it('hopper-gaussian.flowtune, the Gaussian PPO expert of the locomotion recipe, decodes for hopper after its 1M env steps', () => {
    const checkpoint = decodeGaussianCheckpoint(new Uint8Array(readFileSync('public/checkpoints/hopper-gaussian.flowtune')), { task: 'hopper', obsDim: 11, actionDim: 3 });
    expect(checkpoint.metadata.stage).toBe('ppo');
    expect(checkpoint.metadata.training.env_steps).toBe(1_001_472);
    expect(checkpoint.options.hidden).toEqual([64, 64]);
  });
});
