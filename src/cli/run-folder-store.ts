/**
 * A run folder (DESIGN.md §10): config.json, backend.txt (the tfjs backend it trains on), metrics.jsonl (one line per iteration, the
 * whole history of a resumed run included), metrics.csv and checkpoints/*.flowtune. Every
 * file is written durably (§15): a crash never leaves half a checkpoint under its name,
 * and a failed write stops the run with one sentence naming the file.
 */
import path from 'node:path';
import type { RunConfig } from '../core/config/run-config';
import type { MetricRecord } from '../core/metrics/metric-keys';
import { formatMetricsCsv, formatMetricsJsonl, formatMetricsJsonlLine } from '../core/metrics/serialize';
import type { CheckpointFiles } from '../core/checkpoint/checkpoint-open';
import type { RunStore } from '../core/run/run-ports';
import { appendFileDurable, makeFolder, writeFileDurable } from './durable-write';
import { CHECKPOINTS_DIR } from './run-folder';

export class RunFolderStore implements RunStore {
  readonly metricsPath: string;
  /** The newest iteration checkpoint written, kept in memory for a rollback. */
  private newest?: { files: CheckpointFiles & { kind: 'flowtune' }; iteration: number };

  /** Creates the folder and writes the config, the backend and the history the run starts from. */
  constructor(readonly dir: string, config: RunConfig, history: readonly MetricRecord[], backend?: string) {
    makeFolder(path.join(dir, CHECKPOINTS_DIR));
    writeFileDurable(path.join(dir, 'config.json'), JSON.stringify(config, null, 2) + '\n');
    if (backend !== undefined) writeFileDurable(path.join(dir, 'backend.txt'), `${backend}\n`);
    this.metricsPath = path.join(dir, 'metrics.jsonl');
    writeFileDurable(this.metricsPath, formatMetricsJsonl(history));
  }

  async appendMetrics(record: MetricRecord): Promise<void> {
    appendFileDurable(this.metricsPath, formatMetricsJsonlLine(record) + '\n');
  }

  async saveCheckpoint(name: string, bytes: Uint8Array, history: readonly MetricRecord[]): Promise<void> {
    writeFileDurable(this.checkpointPath(name), bytes);
    writeFileDurable(path.join(this.dir, 'metrics.csv'), formatMetricsCsv(history));
    const iteration = Number(history.at(-1)?.['progress/iteration'] ?? 0);
    if (name !== 'final.flowtune') this.newest = { files: { kind: 'flowtune', name: this.checkpointPath(name), bytes }, iteration };
  }

  async newestCheckpoint() {
    return this.newest;
  }

  async replaceMetrics(history: readonly MetricRecord[]): Promise<void> {
    writeFileDurable(this.metricsPath, formatMetricsJsonl(history));
    writeFileDurable(path.join(this.dir, 'metrics.csv'), formatMetricsCsv(history));
  }

  checkpointPath(name: string): string {
    return path.join(this.dir, CHECKPOINTS_DIR, name);
  }
}
