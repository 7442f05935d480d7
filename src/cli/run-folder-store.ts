/**
 * A run folder (DESIGN.md §10): config.json, metrics.jsonl (one line per iteration, the
 * whole history of a resumed run included), metrics.csv and checkpoints/*.flowtune.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { RunConfig } from '../core/config/run-config';
import type { MetricRecord } from '../core/metrics/metric-keys';
import { formatMetricsCsv, formatMetricsJsonl, formatMetricsJsonlLine } from '../core/metrics/serialize';
import type { RunStore } from '../core/run/run-ports';

export class RunFolderStore implements RunStore {
  readonly metricsPath: string;

  /** Creates the folder and writes the config and the history the run starts from. */
  constructor(readonly dir: string, config: RunConfig, history: readonly MetricRecord[]) {
    mkdirSync(path.join(dir, 'checkpoints'), { recursive: true });
    writeFileSync(path.join(dir, 'config.json'), JSON.stringify(config, null, 2) + '\n');
    this.metricsPath = path.join(dir, 'metrics.jsonl');
    writeFileSync(this.metricsPath, formatMetricsJsonl(history));
  }

  async appendMetrics(record: MetricRecord): Promise<void> {
    appendFileSync(this.metricsPath, formatMetricsJsonlLine(record) + '\n');
  }

  async saveCheckpoint(name: string, bytes: Uint8Array, history: readonly MetricRecord[]): Promise<void> {
    writeFileSync(path.join(this.dir, 'checkpoints', name), bytes);
    writeFileSync(path.join(this.dir, 'metrics.csv'), formatMetricsCsv(history));
  }

  async replaceMetrics(history: readonly MetricRecord[]): Promise<void> {
    writeFileSync(this.metricsPath, formatMetricsJsonl(history));
    writeFileSync(path.join(this.dir, 'metrics.csv'), formatMetricsCsv(history));
  }

  checkpointPath(name: string): string {
    return path.join(this.dir, 'checkpoints', name);
  }
}
