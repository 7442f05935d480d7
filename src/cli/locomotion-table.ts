/**
 * `npm run results -- compare=locomotion`'s table (DESIGN.md §14): per task, Gaussian PPO from
 * scratch and, where it was run, BC → flow PPO, each as mean ± std over its seeds of the return
 * on the same fresh evaluation episodes, with env steps and wall-clock per run, beside the
 * published figures (public/results/published-locomotion.json, which names each source).
 */
import { spread } from '../core/metrics/spread';

export interface LocomotionSeed {
  seed: number;
  meanReturn: number;
  envSteps: number;
  wallSeconds: number;
}

export interface LocomotionRow {
  task: string;
  /** Our cells carried over from an earlier table (`keep=`), by column header; the published cells are redrawn. */
  kept?: ReadonlyMap<string, string>;
  /** Gaussian PPO from scratch; empty when not run. */
  gaussian: LocomotionSeed[];
  /** The BC checkpoint's return and the flow PPO runs from it; absent when not run. */
  flow?: { bcReturn: number; seeds: LocomotionSeed[] };
  /** The diffusion BC checkpoint's return and the DPPO runs from it (DESIGN.md §17); absent when not run. */
  dppo?: { bcReturn: number; seeds: LocomotionSeed[] };
  episodes: number;
}

export interface PublishedFigures {
  gaussian_ppo: { source: string; tasks: Record<string, { return: string; minutes?: number }> };
  reinflow: { source: string; tasks: Record<string, { return: string }> };
  dppo: { source: string; tasks: Record<string, { return: string; seconds_per_iteration?: number }> };
}

function summary(seeds: readonly LocomotionSeed[]): string {
  if (seeds.length === 0) return 'not run';
  const figure = spread(seeds.map((seed) => seed.meanReturn));
  const steps = Math.round(spread(seeds.map((seed) => seed.envSteps)).mean).toLocaleString('en-US');
  const minutes = spread(seeds.map((seed) => seed.wallSeconds / 60));
  // One seed has no spread to show: it reads as one seed, not as ± 0.
  const center = seeds.length > 1 ? `${figure.mean.toFixed(0)} ± ${figure.std.toFixed(0)} (${seeds.map((seed) => `s${seed.seed} ${seed.meanReturn.toFixed(0)}`).join(', ')})` : `${figure.mean.toFixed(0)} (1 seed, s${seeds[0].seed})`;
  return `${center}; ${steps} steps, ${minutes.mean.toFixed(0)} min`;
}

/** The columns holding our own figures, in table order. */
export const OUR_COLUMNS = ['Gaussian PPO from scratch (ours)', 'BC → flow PPO (ours)', 'diffusion BC → DPPO (ours)'] as const;
const HEADER = ['task', OUR_COLUMNS[0], 'CleanRL Gaussian PPO (published)', OUR_COLUMNS[1], 'ReinFlow (published)', OUR_COLUMNS[2], 'DPPO (published)'];

/**
 * A task's cells of our columns in an earlier table, by header, or undefined when it has no row for the task. Columns
 * the earlier table lacked read 'not run'.
 */
export function keptCells(table: string, task: string): Map<string, string> | undefined {
  const cells = (line: string) => line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((cell) => cell.trim());
  const lines = table.split('\n').filter((line) => line.trim().startsWith('|'));
  if (lines.length < 2) return undefined;
  const header = cells(lines[0]);
  const row = lines.slice(2).map(cells).find((values) => values[0] === task);
  if (!row) return undefined;
  return new Map(OUR_COLUMNS.map((column) => [column, header.includes(column) ? row[header.indexOf(column)] ?? 'not run' : 'not run']));
}

export function formatLocomotionTable(rows: readonly LocomotionRow[], published: PublishedFigures, wallNote = ''): string {
  const lines = [`| ${HEADER.join(' | ')} |`, `|${HEADER.map(() => '---').join('|')}|`];
  for (const row of rows) {
    const cleanrl = published.gaussian_ppo.tasks[row.task];
    const reinflow = published.reinflow.tasks[row.task];
    const dppo = published.dppo.tasks[row.task];
    const fromBc = (part: LocomotionRow['flow']) => (part ? `${part.bcReturn.toFixed(0)} → ${summary(part.seeds)}` : 'not run');
    const ours = row.kept ?? new Map([[OUR_COLUMNS[0], summary(row.gaussian)], [OUR_COLUMNS[1], fromBc(row.flow)], [OUR_COLUMNS[2], fromBc(row.dppo)]]);
    lines.push(`| ${row.task} | ${ours.get(OUR_COLUMNS[0])} | ${cleanrl ? `${cleanrl.return}${cleanrl.minutes ? `, ${cleanrl.minutes} min` : ''}` : '—'} | ${ours.get(OUR_COLUMNS[1])} | ${reinflow?.return ?? '—'} | ${ours.get(OUR_COLUMNS[2])} | ${dppo?.return ?? '—'} |`);
  }
  const episodes = rows.find((row) => !row.kept)?.episodes ?? rows[0]?.episodes ?? 0;
  const kept = rows.filter((row) => row.kept).map((row) => row.task);
  lines.push('', `Ours: mean ± std over seeds of the mean return of ${episodes} fresh evaluation episodes per run (deterministic: the Gaussian policy's mean action, the flow policy's ODE chain, the diffusion policy's DDPM mean chain), env steps and wall-clock per run on 2 CPU cores.${kept.length > 0 ? ` The ${kept.join(' and ')} row${kept.length > 1 ? 's are' : ' is'} carried over from an earlier run of this table.` : ''}${wallNote ? ` Wall-clock: ${wallNote}` : ''} Published: ${published.gaussian_ppo.source}; ${published.reinflow.source}; ${published.dppo.source}.`);
  return `${lines.join('\n')}\n`;
}
