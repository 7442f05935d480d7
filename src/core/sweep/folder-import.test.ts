import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../config';
import { readDroppedFolders, type FolderFile } from './folder-import';
import { summarizeSweep, type SweepRunResult } from './sweep-summary';

const metrics = (...success: number[]) =>
  success.map((rate, index) => JSON.stringify({ 'progress/iteration': index + 1, 'progress/env_steps': (index + 1) * 64, 'charts/success_rate': rate })).join('\n') + '\n';
const config = (overrides: Record<string, unknown> = {}) => JSON.stringify({ ...defaultConfig(), ...overrides });

function sweepFiles(): FolderFile[] {
  const runs: SweepRunResult[] = [
    { id: 'baseline-s0', variant: 'baseline', seed: 0, successRate: 0.5, meanReturn: -20, envSteps: 128, wallSeconds: 3 },
    { id: 'lr-high-s0', variant: 'lr:high', seed: 0, successRate: 0.75, meanReturn: -15, envSteps: 128, wallSeconds: 4 },
  ];
  const summary = summarizeSweep({ preset: 'reinflow-ablation', task: 'reach', variants: ['baseline', 'lr:high'], runs }, runs, { episodes: 4, seed: 2_000_000 });
  return [
    { path: 'sw/summary.json', text: JSON.stringify({ ...summary, runs }) },
    { path: 'sw/runs/baseline-s0/metrics.jsonl', text: metrics(0.25, 0.5) },
    { path: 'sw/runs/baseline-s0/config.json', text: config({ task: 'reach' }) },
    { path: 'sw/runs/lr-high-s0/metrics.jsonl', text: metrics(0.5, 0.75) },
    { path: 'sw/runs/lr-high-s0/config.json', text: config({ task: 'reach', actor_lr: 1e-4 }) },
  ];
}

describe('dropped run and sweep folders', () => {
  it('reads a sweep folder: its summary, and its runs labelled with variant and seed', () => {
    const { runs, sweeps } = readDroppedFolders(sweepFiles());
    expect(sweeps).toHaveLength(1);
    expect(sweeps[0].folder).toBe('sw');
    expect(sweeps[0].summary.variants[1].vsBaseline).toBeCloseTo(0.25, 12);
    expect(sweeps[0].runFolders.sort()).toEqual(['sw/runs/baseline-s0', 'sw/runs/lr-high-s0']);
    expect(runs.map((run) => [run.folder, run.variant, run.seed, run.sweepFolder])).toEqual([
      ['sw/runs/baseline-s0', 'baseline', 0, 'sw'],
      ['sw/runs/lr-high-s0', 'lr:high', 0, 'sw'],
    ]);
    expect(runs[1].config.actor_lr).toBe(1e-4);
    expect(runs[1].records.map((record) => record['charts/success_rate'])).toEqual([0.5, 0.75]);
  });

  it('drops a torn last line of a metrics.jsonl (a crash mid-append) and says so, importing the rest', () => {
    const { runs, warnings } = readDroppedFolders([
      { path: 'r/metrics.jsonl', text: `${metrics(0.1, 0.2)}{"progress/iteration":3,"charts/succ` },
      { path: 'r/config.json', text: config() },
      { path: 'q/metrics.jsonl', text: metrics(0.3) },
      { path: 'q/config.json', text: config() },
    ]);
    expect(runs.map((run) => [run.folder, run.records.map((record) => record['charts/success_rate'])])).toEqual([['q', [0.3]], ['r', [0.1, 0.2]]]);
    expect(warnings).toEqual(['r/metrics.jsonl: line 3 is cut short (not valid JSON and not ended by a newline, as a crash mid-write leaves it); it was dropped']);
    expect(readDroppedFolders([{ path: 'q/metrics.jsonl', text: metrics(0.3) }, { path: 'q/config.json', text: config() }]).warnings).toEqual([]);
  });

  it('reads a lone run folder, with Windows or ./ paths', () => {
    const { runs, sweeps } = readDroppedFolders([
      { path: './run7\\metrics.jsonl', text: metrics(0.1) },
      { path: 'run7/config.json', text: config() },
      { path: 'run7/checkpoints/notes.txt', text: 'ignored' },
    ]);
    expect(sweeps).toEqual([]);
    expect(runs).toHaveLength(1);
    expect(runs[0].folder).toBe('run7');
    expect(runs[0].variant).toBeUndefined();
  });

  it('refuses a drop with one sentence naming the file, and imports nothing', () => {
    expect(() => readDroppedFolders([{ path: 'x/readme.md', text: 'hi' }])).toThrow(/hold no run folder \(metrics.jsonl with config.json\) and no sweep folder/);
    expect(() => readDroppedFolders([{ path: 'r/metrics.jsonl', text: metrics(1) }])).toThrow(/^r\/metrics.jsonl has no config.json beside it/);
    expect(() => readDroppedFolders([{ path: 'r/metrics.jsonl', text: '{"progress/iteration": 1}\n{oops\n{"progress/iteration": 3}\n' }, { path: 'r/config.json', text: config() }]))
      .toThrow(/^r\/metrics.jsonl line 2 is not valid JSON$/);
    expect(() => readDroppedFolders([{ path: 'r/metrics.jsonl', text: metrics(1) }, { path: 'r/config.json', text: config({ actor_lr: 'fast' }) }]))
      .toThrow(/r\/config.json/);
    expect(() => readDroppedFolders([{ path: 'r/metrics.jsonl', text: metrics(1) }, { path: 'r/config.json', text: '{"sed": 1}' }]))
      .toThrow(/unknown config key 'sed'/);
    const files = sweepFiles();
    const broken = JSON.parse(files[0].text) as { variants: Record<string, unknown>[] };
    delete broken.variants[1].success;
    files[0] = { path: 'sw/summary.json', text: JSON.stringify(broken) };
    expect(() => readDroppedFolders(files)).toThrow('sw/summary.json is not a sweep summary: variants[1].success must be an object with mean, std, min and max');
    expect(() => readDroppedFolders([{ path: 'sw/summary.json', text: '{"preset": "p"' }])).toThrow(/^sw\/summary.json is not valid JSON/);
    const errorName = (() => { try { readDroppedFolders([]); } catch (error) { return (error as Error).name; } })();
    expect(errorName).toBe('ImportError');
  });
});
