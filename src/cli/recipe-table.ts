/**
 * The README's recipe comparison from measured numbers: per task and recipe (BC → PPO, or
 * BC → stage 2 → PPO), the success PPO started from and ended at on the same fresh eval seeds,
 * and the env steps each run took to reach 90% smoothed rollout success.
 */
import { spread } from '../core/metrics/spread';

export interface RecipeSeedResult {
  seed: number;
  /** Success of the checkpoint PPO started from (BC, or that seed's stage-2 checkpoint). */
  startSuccessRate: number;
  finalSuccessRate: number;
  /** Undefined when the run never reached the threshold. */
  envStepsToThreshold?: number;
  wallSeconds: number;
}

export interface RecipeResult {
  task: string;
  recipe: string;
  seeds: RecipeSeedResult[];
}

const percent = (rate: number) => `${(rate * 100).toFixed(1)}%`;
const thousands = (steps: number) => `${Math.round(steps / 1000).toLocaleString('en-US')}k`;

function meanStd(values: number[], format: (value: number) => string): string {
  const { mean, std } = spread(values);
  return `${format(mean)} ± ${format(std)}`;
}

/** A markdown table, one row per task and recipe; `threshold` only labels the column. */
export function formatRecipeTable(results: readonly RecipeResult[], threshold: number): string {
  const label = `${Math.round(threshold * 100)}%`;
  const lines = [
    `| task | recipe | PPO start success | PPO final success per seed | final mean ± std | env steps to ${label} per seed | wall-clock per run |`,
    '|---|---|---|---|---|---|---|',
  ];
  for (const result of results) {
    const starts = result.seeds.map((seed) => seed.startSuccessRate);
    const start = new Set(starts).size === 1 ? percent(starts[0]) : `${meanStd(starts, percent)} (${result.seeds.map((seed) => percent(seed.startSuccessRate)).join(', ')})`;
    const reached = result.seeds.filter((seed) => seed.envStepsToThreshold !== undefined).map((seed) => seed.envStepsToThreshold!);
    const steps = result.seeds.map((seed) => `s${seed.seed}: ${seed.envStepsToThreshold === undefined ? 'never' : thousands(seed.envStepsToThreshold)}`).join(', ');
    const stepsMean = reached.length === result.seeds.length ? ` (mean ${thousands(spread(reached).mean)})` : '';
    lines.push(`| ${[
      result.task,
      result.recipe,
      start,
      result.seeds.map((seed) => `s${seed.seed}: ${percent(seed.finalSuccessRate)}`).join(', '),
      meanStd(result.seeds.map((seed) => seed.finalSuccessRate), percent),
      `${steps}${stepsMean}`,
      `${spread(result.seeds.map((seed) => seed.wallSeconds / 60)).mean.toFixed(1)} min`,
    ].join(' | ')} |`);
  }
  return `${lines.join('\n')}\n`;
}
