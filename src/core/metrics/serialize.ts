/**
 * metrics.csv and metrics.jsonl (DESIGN.md §10). CSV: a header with the union of
 * keys in METRIC_KEYS order, one row per record, empty cells for keys a record
 * lacks. JSONL: one object per line. Numbers are written with String(), which
 * reads back to the same double; non-finite values are written as NaN, Infinity
 * and -Infinity (as strings in JSONL, since JSON has no such numbers).
 */
import { ShapeError } from '../errors';
import { METRIC_KEYS, isMetricKey, type MetricKey, type MetricRecord } from './metric-keys';

/** Parsed metrics, plus the keys in the file that are not MetricKeys (skipped). */
export interface ParsedMetrics {
  readonly records: MetricRecord[];
  readonly ignoredKeys: string[];
  /** Set when a torn last line was dropped: one sentence naming the file and the line. */
  readonly warning?: string;
}

/** The keys present in any record, in METRIC_KEYS order. */
export function metricColumns(records: readonly MetricRecord[]): MetricKey[] {
  const present = new Set<string>();
  for (const record of records) for (const key of Object.keys(record)) present.add(key);
  return METRIC_KEYS.filter((key) => present.has(key));
}

function formatNumber(value: number): string {
  return Number.isNaN(value) ? 'NaN' : String(value);
}

/** Whole CSV text (header + rows, each ending in a newline). */
export function formatMetricsCsv(records: readonly MetricRecord[], columns: readonly MetricKey[] = metricColumns(records)): string {
  const lines = [columns.join(',')];
  for (const record of records) {
    lines.push(columns.map((key) => (record[key] === undefined ? '' : formatNumber(record[key]))).join(','));
  }
  return lines.join('\n') + '\n';
}

function parseCell(cell: string, where: string): number {
  const text = cell.trim();
  if (text === 'NaN') return NaN;
  const value = text === '' ? NaN : Number(text);
  if (Number.isNaN(value)) throw new ShapeError(where, `${where} is not a number (got '${cell}')`);
  return value;
}

/** Parses CSV text written by formatMetricsCsv (or any comma-separated numeric table with a header). */
export function parseMetricsCsv(text: string, source = 'metrics.csv'): ParsedMetrics {
  const lines = text.split(/\r?\n/);
  while (lines.length > 0 && lines[lines.length - 1].trim() === '') lines.pop();
  if (lines.length === 0) return { records: [], ignoredKeys: [] };
  const header = lines[0].split(',').map((cell) => cell.trim().replace(/^"(.*)"$/, '$1'));
  const ignoredKeys = header.filter((key) => !isMetricKey(key));
  const records: MetricRecord[] = [];
  for (let lineIndex = 1; lineIndex < lines.length; lineIndex++) {
    const cells = lines[lineIndex].split(',');
    if (cells.length !== header.length) {
      throw new ShapeError(source, `${source} line ${lineIndex + 1} has ${cells.length} cells but the header has ${header.length}`);
    }
    const record: MetricRecord = {};
    header.forEach((key, column) => {
      if (!isMetricKey(key) || cells[column].trim() === '') return;
      record[key] = parseCell(cells[column], `${source} line ${lineIndex + 1}, column ${key}`);
    });
    records.push(record);
  }
  return { records, ignoredKeys };
}

/** One JSONL line (no newline), keys in METRIC_KEYS order. */
export function formatMetricsJsonlLine(record: MetricRecord): string {
  const ordered: Record<string, number | string> = {};
  for (const key of METRIC_KEYS) {
    const value = record[key];
    if (value !== undefined) ordered[key] = Number.isFinite(value) ? value : formatNumber(value);
  }
  return JSON.stringify(ordered);
}

/** Whole JSONL text, one record per line, each ending in a newline. */
export function formatMetricsJsonl(records: readonly MetricRecord[]): string {
  return records.map((record) => formatMetricsJsonlLine(record) + '\n').join('');
}

const NON_FINITE: Record<string, number> = { NaN: NaN, Infinity: Infinity, '-Infinity': -Infinity };

export interface JsonlReadOptions {
  /**
   * 'drop' (the default, for metrics.jsonl files): a last line that is neither valid JSON nor
   * ended by a newline (what a crash mid-append leaves) is dropped, and `warning` says so.
   * 'refuse': it is an error like any other bad line.
   */
  readonly tornLastLine?: 'drop' | 'refuse';
}

/** True when `line` is not valid JSON. */
function isUnparsable(line: string): boolean {
  try {
    JSON.parse(line);
    return false;
  } catch {
    return true;
  }
}

/**
 * Parses JSONL text; blank lines are skipped; a value must be a number, null (skipped) or
 * NaN/Infinity/-Infinity strings. A bad line is a ShapeError naming `source` and the line, except a
 * torn last line (see JsonlReadOptions), which is dropped with a warning.
 */
export function parseMetricsJsonl(text: string, source = 'metrics.jsonl', options: JsonlReadOptions = {}): ParsedMetrics {
  const records: MetricRecord[] = [];
  const ignored = new Set<string>();
  const lines = text.split(/\r?\n/);
  let warning: string | undefined;
  // The text after the last newline: empty when the file ends in one, else an unterminated line.
  const tail = lines[lines.length - 1];
  if ((options.tornLastLine ?? 'drop') === 'drop' && tail.trim() !== '' && isUnparsable(tail)) {
    lines.pop();
    warning = `${source}: line ${lines.length + 1} is cut short (not valid JSON and not ended by a newline, as a crash mid-write leaves it); it was dropped`;
  }
  lines.forEach((line, lineIndex) => {
    if (line.trim() === '') return;
    const where = `${source} line ${lineIndex + 1}`;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      throw new ShapeError(source, `${where} is not valid JSON`);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new ShapeError(source, `${where} must be a JSON object of metric values`);
    }
    const record: MetricRecord = {};
    for (const [key, value] of Object.entries(parsed)) {
      if (!isMetricKey(key)) {
        ignored.add(key);
      } else if (typeof value === 'number') {
        record[key] = value;
      } else if (typeof value === 'string' && Object.hasOwn(NON_FINITE, value)) {
        record[key] = NON_FINITE[value];
      } else if (value !== null) {
        throw new ShapeError(source, `${where}: ${key} must be a number or one of ${Object.keys(NON_FINITE).map((word) => `"${word}"`).join(', ')} (got ${JSON.stringify(value)})`);
      }
    }
    records.push(record);
  });
  return { records, ignoredKeys: [...ignored], ...(warning !== undefined ? { warning } : {}) };
}
