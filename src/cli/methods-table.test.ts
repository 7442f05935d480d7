import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { PublishedFigures } from './locomotion-table';
import { formatMethodsTable, keptMethodSection, type PublishedMethods } from './methods-table';

const published = JSON.parse(readFileSync(new URL('../../public/results/published-methods.json', import.meta.url), 'utf8')) as PublishedMethods;
const options = { episodes: 100, seed: 2_000_000 };

describe('formatMethodsTable', () => {
  it('puts each method\'s start and seeds as mean ± std, env steps, wall-clock and env steps/s beside the published figure', () => {
    const page = formatMethodsTable([{
      task: 'hopper', measure: 'return', figure: 'methods-hopper.svg',
      methods: [
        {
          id: 'gaussian', start: null,
          seeds: [
            { seed: 0, measure: 2000, envSteps: 1_001_472, wallSeconds: 1800 },
            { seed: 1, measure: 2400, envSteps: 1_001_472, wallSeconds: 2400 },
          ],
        },
        { id: 'flowsde', start: 881.4, seeds: [] },
        {
          id: 'reinflow', start: 881.4,
          seeds: [
            { seed: 0, measure: 1760, envSteps: 1_003_402, wallSeconds: 2940 },
            { seed: 1, measure: 2044, envSteps: 1_003_402, wallSeconds: 2940 },
            { seed: 2, measure: 2551, envSteps: 1_011_594, wallSeconds: 3000 },
          ],
        },
        { id: 'dppo', seeds: [] },
        { id: 'shortcut', notApplicable: 'not on the Gym tasks', seeds: [] },
      ],
    }], published, options);
    expect(page).toContain('### hopper (return)\n\n| method | start (BC) | after fine-tuning per seed, mean ± std | env steps per run | wall-clock per run | env steps/s | published |\n|---|---|---|---|---|---|---|');
    // Mean 2200, sample std √((200² + 200²) / 1) = 282.8; 30 and 40 min → 35.0 (30.0–40.0);
    // 1,001,472 steps over 1800 s = 556.4/s and over 2400 s = 417.3/s → mean 486.8 (417–556).
    expect(page).toContain('| Gaussian PPO from scratch | — (from scratch) | 2200 ± 283 (s0 2000, s1 2400) | 1,001,472 | 35.0 min (30.0–40.0) | 487 (417–556) | 2382.86 ± 271.74; 1M steps, 25.7 min |');
    // A BC checkpoint whose runs have not finished shows its own figure.
    expect(page).toContain('| BC → Flow-SDE (πRL) | 881 | not run | — | — | — | — |');
    // Mean of 1760, 2044, 2551 = 6355 / 3 = 2118.3; deviations −358.3, −74.3, 432.7; squares 128,403 + 5,525 + 187,201 = 321,129;
    // / 2 = 160,564; √ = 400.7. Steps (1,003,402 × 2 + 1,011,594) / 3 = 1,006,133 (1,003,402–1,011,594);
    // 49, 49 and 50 min → 49.3 (49.0–50.0); rates 341.3, 341.3 and 337.2 → 339.9 (337–341).
    expect(page).toContain('| BC → learned noise (ReinFlow) | 881 | 2118 ± 401 (s0 1760, s1 2044, s2 2551) | 1,006,133 (1,003,402–1,011,594) | 49.3 min (49.0–50.0) | 340 (337–341) | 1432 → 3205 after 80M steps;');
    expect(page).toContain('| diffusion BC → DPPO | no BC checkpoint | not run | — | — | — | 1413 → 3281 after 80M steps; 99.0 s per 80k-step iteration |');
    expect(page).toContain('| ShortCut BC → ReinFlow | n/a | n/a: not on the Gym tasks | — | — | — | — |');
    expect(page).toContain('\n![hopper: in-run evaluation return against env steps, mean over seeds with their min–max](methods-hopper.svg)\n');
    expect(page).toContain('on the same 100 fresh evaluation episodes (reset seeds from 2000000)');
    // Without a wall_note= the page says the wall-clock is not known to be a method's alone.
    expect(page).toContain('Wall-clock: as each run logged it; what else ran on the machine meanwhile was not said');
    expect(page).toContain(`Published: Gaussian PPO from scratch: ${published.methods.gaussian.source}; BC → learned noise (ReinFlow): `);
  });

  it('reads success rates as percentages, and one seed as one seed', () => {
    const page = formatMethodsTable([{
      task: 'pick-cube', measure: 'success',
      methods: [{ id: 'reinflow', start: 0.59, seeds: [{ seed: 2, measure: 0.97, envSteps: 1_000_000, wallSeconds: 500 }] }],
    }], published, { ...options, wallNote: 'each run alone on the 2 cores.' });
    expect(page).toContain('### pick-cube (success rate)');
    // 1,000,000 steps in 500 s = 2000/s; 8.3 min.
    expect(page).toContain('| BC → learned noise (ReinFlow) | 59.0% | 97.0% (1 seed, s2) | 1,000,000 | 8.3 min | 2000 | — |');
    // A method the results name no entry for reads "not run"; no figure, no link.
    expect(page).toContain('| Gaussian PPO from scratch | not run | not run | — | — | — | — |');
    expect(page).not.toContain('![');
    expect(page).toContain('Wall-clock: each run alone on the 2 cores.');
  });

  it('carries a kept task\'s own cells over from an earlier page, with its figure, and redraws the published ones', () => {
    const earlier = formatMethodsTable([{
      task: 'walker2d', measure: 'return', figure: 'methods-walker2d.svg',
      methods: [{ id: 'gaussian', start: null, seeds: [{ seed: 0, measure: 4916, envSteps: 1_001_472, wallSeconds: 2340 }] }],
    }], { ...published, methods: { ...published.methods, gaussian: { source: 'old', tasks: { walker2d: 'old figure' } } } }, options);
    const section = keptMethodSection(earlier, 'walker2d')!;
    expect(section.measure).toBe('return');
    expect(section.figure).toBe('methods-walker2d.svg');
    expect(section.kept?.get('Gaussian PPO from scratch')).toEqual(['— (from scratch)', '4916 (1 seed, s0)', '1,001,472', '39.0 min', '428']);
    expect(keptMethodSection(earlier, 'hopper')).toBeUndefined();
    const page = formatMethodsTable([{ task: 'walker2d', ...section }], published, options);
    expect(page).toContain('| Gaussian PPO from scratch | — (from scratch) | 4916 (1 seed, s0) | 1,001,472 | 39.0 min | 428 | 2287.95 ± 571.78; 1M steps, 24.3 min |');
    expect(page).toContain('The walker2d table is carried over from an earlier run of this page.');
    expect(page).toContain('](methods-walker2d.svg)');
  });
});

describe('published-methods.json', () => {
  it('holds the locomotion table\'s published figures for the methods both compare, and says where none is sourced', () => {
    const locomotion = JSON.parse(readFileSync(new URL('../../public/results/published-locomotion.json', import.meta.url), 'utf8')) as PublishedFigures;
    for (const task of ['hopper', 'walker2d']) {
      expect(published.methods.gaussian.tasks[task]).toMatch(new RegExp(`^${locomotion.gaussian_ppo.tasks[task].return}; 1M steps, ${locomotion.gaussian_ppo.tasks[task].minutes} min$`));
      expect(published.methods.reinflow.tasks[task].startsWith(locomotion.reinflow.tasks[task].return)).toBe(true);
      expect(published.methods.dppo.tasks[task].startsWith(locomotion.dppo.tasks[task].return)).toBe(true);
    }
    expect(published.methods.reinflow.source.startsWith(locomotion.reinflow.source)).toBe(true);
    expect(published.methods.flowsde.tasks).toEqual({});
    expect(published.methods.shortcut.tasks).toEqual({});
    expect(published.unsourced).toMatch(/Flow-SDE/);
  });
});
