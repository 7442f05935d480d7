import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';

import { useNodeBackend } from './node-backend';
import { decodeGaussianCheckpoint } from '../core/gaussian/gaussian-checkpoint';
import { flowArchitectureOf, parseCheckpointFile } from '../core/checkpoint/checkpoint-file';
import { loadBundle } from '../core/checkpoint/fixtures/decode-bytes';
import { applyOverrides, defaultConfig, runOverrides } from '../core/config';
import { runConfigForCheckpoint } from '../core/run/checkpoint-run-config';
import { methodOnRow, type MethodId } from './methods';

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

/** Reads public/checkpoints/`file` for `task`, hands its metadata to `check`, and frees the policy after. */
function withShipped(file: string, task: string, check: (metadata: ReturnType<typeof loadBundle>['metadata']) => void): void {
  const loaded = loadBundle(new Uint8Array(readFileSync(`public/checkpoints/${file}`)), { expectedTask: task });
  try {
    check(loaded.metadata);
  } finally {
    loaded.bundle.policy.dispose();
  }
}

/** The preset and keys a methods row fine-tunes with (success-rated task); refused when the row has none. */
function presetRecipeOf(task: string, id: MethodId): { preset: string; keys: readonly string[] } {
  const onRow = methodOnRow(task, true, id);
  if (!('recipe' in onRow) || onRow.recipe.preset === undefined) throw new Error(`${task}'s ${id} row has no preset recipe`);
  return { preset: onRow.recipe.preset, keys: onRow.recipe.keys };
}

describe('shipped checkpoints', () => {
  for (const shipped of SHIPPED) {
    it(`${shipped.file} passes the full reader for task '${shipped.task}' and is stage '${shipped.stage}'`, () => {
      withShipped(shipped.file, shipped.task, (metadata) => {
        expect(metadata.task).toBe(shipped.task);
        expect(metadata.stage).toBe(shipped.stage);
        if (shipped.stage === 'bc') {
          // Deliberately imperfect, so online RL has room: 20–60% on the 100-episode evaluation pretraining stored.
          expect(metadata.eval.episodes).toBe(100);
          expect(metadata.eval.success_rate).toBeGreaterThanOrEqual(0.2);
          expect(metadata.eval.success_rate).toBeLessThanOrEqual(0.6);
        } else {
          expect(metadata.training.env_steps).toBeGreaterThan(0);
        }
      });
    });
  }

  // Flow BC on the locomotion recipe's medium data: the stored return on 100 episodes lies below the
  // data's own mean return, and far above a policy that falls at once (about 1 per healthy step).
  const LOCOMOTION_BC = [
    // Pretraining stored 852; the medium data's 2,974 episodes return 1105 on average.
    { task: 'hopper', dataMean: 1105, fallsAtOnce: 500 },
    // Pretraining stored 1545; the medium data's 1,389 episodes (sampled at 0.25σ) return 2554; a walker
    // that falls within its first few dozen steps collects well under 400.
    { task: 'walker2d', dataMean: 2554, fallsAtOnce: 400 },
  ] as const;
  for (const { task, dataMean, fallsAtOnce } of LOCOMOTION_BC) {
    it(`${task}-bc.flowtune, flow BC on ${task}'s medium data, stored a return on 100 episodes between ${fallsAtOnce} and the data's ${dataMean}`, () => {
      withShipped(`${task}-bc.flowtune`, task, (metadata) => {
        expect(metadata.stage).toBe('bc');
        expect(metadata.eval.episodes).toBe(100);
        expect(metadata.eval.mean_return).toBeGreaterThan(fallsAtOnce);
        expect(metadata.eval.mean_return).toBeLessThan(dataMean);
      });
    });
  }

  // Flow PPO from the BC checkpoints above (preset locomotion-reinflow; hopper: seed 1 at 1.88M env steps of a 3M-step run, walker2d: seed 0 at 1.72M of one, with ReinFlow's walker2d critic).
  const LOCOMOTION_PPO = [
    { task: 'hopper', envSteps: 1_879_023 },
    { task: 'walker2d', envSteps: 1_716_940 },
  ] as const;
  for (const { task, envSteps } of LOCOMOTION_PPO) {
    it(`${task}-ppo.flowtune, flow PPO from ${task}-bc.flowtune, decodes for ${task} after its ${envSteps} env steps`, () => {
      withShipped(`${task}-ppo.flowtune`, task, (metadata) => {
        expect(metadata.stage).toBe('ppo');
        expect(metadata.training.env_steps).toBe(envSteps);
      });
    });
  }

  // The DPPO rows of the methods table: diffusion BC (T = 20) on each task's medium data, the same data, widths and
  // chunks as its flow BC; hopper's seed 0 of preset=dppo ships, fine-tuned from it for 123 iterations of 16 envs ×
  // 128 decisions × 4 actions (≈ 8.2k env steps each).
  const LOCOMOTION_DIFFUSION_BC = [
    // Pretraining stored 3031 (the DDPM mean chain); a hopper that falls at once collects about 1 per step.
    { task: 'hopper', fallsAtOnce: 500 },
    // Pretraining stored 2458; the walker's medium data return 2554.
    { task: 'walker2d', fallsAtOnce: 400 },
  ] as const;
  for (const { task, fallsAtOnce } of LOCOMOTION_DIFFUSION_BC) {
    it(`${task}-diffusion-bc.flowtune is a diffusion policy (ε-prediction, T = 20) that stored a return above ${fallsAtOnce} on 100 episodes`, () => {
      withShipped(`${task}-diffusion-bc.flowtune`, task, (metadata) => {
        expect(metadata.stage).toBe('bc');
        expect(metadata.architecture.kind).toBe('diffusion');
        expect(metadata.architecture.prediction).toBe('epsilon');
        expect(metadata.architecture.denoise_steps).toBe(20);
        expect(metadata.eval.episodes).toBe(100);
        expect(metadata.eval.mean_return).toBeGreaterThan(fallsAtOnce);
      });
    });
  }

  // pick-cube's DPPO row starts from diffusion BC on the same 80 scripted episodes as pick-cube-bc.flowtune. Its DDPM
  // chain over 20 steps stored 97% there, where the flow BC's 4-step chain stored 49%: the table shows both starts.
  it('pick-cube-diffusion-bc.flowtune is a diffusion policy (ε-prediction, T = 20) that stored its success on 100 episodes', () => {
    withShipped('pick-cube-diffusion-bc.flowtune', 'pick-cube', (metadata) => {
      expect(metadata.stage).toBe('bc');
      expect(metadata.architecture.kind).toBe('diffusion');
      expect(metadata.architecture.prediction).toBe('epsilon');
      expect(metadata.architecture.denoise_steps).toBe(20);
      expect(metadata.eval.episodes).toBe(100);
      expect(metadata.eval.success_rate).toBeGreaterThan(0.2);
    });
  });

  // The methods table's ShortCut row starts here: seed 003's ShortCut UNet1D (H 16 with 8 executed, K 8, one observation
  // frame), trained with the step-size input on the same 80 scripted episodes as pick-cube-bc.flowtune.
  it('pick-cube-shortcut-bc.flowtune is seed 003\'s ShortCut UNet1D, stored 20–60% on 100 episodes, and its row fine-tunes it at K = 8', () => {
    withShipped('pick-cube-shortcut-bc.flowtune', 'pick-cube', (metadata) => {
      expect(metadata.stage).toBe('bc');
      const arch = flowArchitectureOf(metadata);
      expect(arch).toMatchObject({ velocityNet: 'unet1d', shortcut: true, horizon: 16, nObsSteps: 1 });
      expect(metadata.architecture).toMatchObject({ denoise_steps: 8, n_action_steps: 8 });
      expect(metadata.eval.episodes).toBe(100);
      expect(metadata.eval.success_rate).toBeGreaterThanOrEqual(0.2);
      expect(metadata.eval.success_rate).toBeLessThanOrEqual(0.6);
      const recipe = presetRecipeOf('pick-cube', 'shortcut');
      const base = applyOverrides(defaultConfig(), ['task=pick-cube']);
      const run = runConfigForCheckpoint(base, metadata, runOverrides(recipe.preset, recipe.keys));
      expect(run.policy).toMatchObject({ velocity_net: 'unet1d', denoise_steps: 8, n_action_steps: 8, horizon: 16 });
    });
  });

  // reinflow-baseline's K = 8 is seed 003's ShortCut chain; the methods table's learned-noise row keeps the flow BC's own.
  it('the methods table fine-tunes pick-cube-bc.flowtune with learned noise at the K it was trained and measured at', () => {
    withShipped('pick-cube-bc.flowtune', 'pick-cube', (metadata) => {
      const recipe = presetRecipeOf('pick-cube', 'reinflow');
      const base = applyOverrides(defaultConfig(), ['task=pick-cube']);
      const run = runConfigForCheckpoint(base, metadata, runOverrides(recipe.preset, recipe.keys));
      expect(run.policy.denoise_steps).toBe(metadata.architecture.denoise_steps);
      // The preset alone would sample it at seed 003's K = 8.
      expect(runConfigForCheckpoint(base, metadata, runOverrides(recipe.preset, [])).policy.denoise_steps).toBe(8);
    });
  });

  it('hopper-dppo.flowtune, DPPO from hopper-diffusion-bc.flowtune, decodes for hopper after its 1,006,428 env steps', () => {
    withShipped('hopper-dppo.flowtune', 'hopper', (metadata) => {
      expect(metadata.stage).toBe('ppo');
      expect(metadata.architecture.kind).toBe('diffusion');
      expect(metadata.training.env_steps).toBe(1_006_428);
    });
  });

  it('hopper-gaussian.flowtune, the Gaussian PPO expert of the locomotion recipe, decodes for hopper after its 1M env steps', () => {
    const checkpoint = decodeGaussianCheckpoint(parseCheckpointFile({ kind: 'flowtune', name: 'hopper-gaussian.flowtune', bytes: new Uint8Array(readFileSync('public/checkpoints/hopper-gaussian.flowtune')) }, { expectedTask: 'hopper' }), { obsDim: 11, actionDim: 3 });
    expect(checkpoint.metadata.stage).toBe('ppo');
    expect(checkpoint.metadata.training.env_steps).toBe(1_001_472);
    expect(checkpoint.options.hidden).toEqual([64, 64]);
  });
});
