/**
 * A run folder's metrics.jsonl read on the command line (DESIGN.md §10, §15): every bad line is an
 * error naming the file and line, except a torn last line (a crash mid-append), which is dropped
 * with one `warning:` line on stderr.
 */
import { readFileSync } from 'node:fs';
import { parseMetricsJsonl, type MetricRecord } from '../core/metrics';

/** Writes one line on stderr. */
const stderrLine = (line: string) => {
  process.stderr.write(`${line}\n`);
};

/** The records of the metrics.jsonl at `file`; a dropped torn last line is reported through `warn` as `warning: …`. */
export function readMetricsFile(file: string, warn: (line: string) => void = stderrLine): MetricRecord[] {
  return metricsFromText(readFileSync(file, 'utf8'), file, warn);
}

/** readMetricsFile for text already read from `file`. */
export function metricsFromText(text: string, file: string, warn: (line: string) => void = stderrLine): MetricRecord[] {
  const { records, warning } = parseMetricsJsonl(text, file);
  if (warning !== undefined) warn(`warning: ${warning}`);
  return records;
}
