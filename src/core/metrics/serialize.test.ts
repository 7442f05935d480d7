import { describe, expect, it } from 'vitest';
import { ShapeError } from '../errors';
import { createRng, type Rng } from '../random';
import { METRIC_KEYS, type MetricRecord } from './metric-keys';
import {
  formatMetricsCsv, formatMetricsJsonl, formatMetricsJsonlLine, metricColumns, parseMetricsCsv, parseMetricsJsonl,
} from './serialize';
import { latestMetric, metricSeries } from './series';

function randomRecords(rng: Rng): MetricRecord[] {
  const specials = [NaN, Infinity, -Infinity, 0, -0.5, 1e-300, 1e300, 0.1 + 0.2];
  return Array.from({ length: 1 + rng.int(20) }, (_, iteration) => {
    const record: MetricRecord = { 'progress/iteration': iteration + 1 };
    for (const key of METRIC_KEYS) {
      if (rng.uniform() < 0.4) record[key] = rng.uniform() < 0.1 ? specials[rng.int(specials.length)] : rng.normal() * 10 ** rng.int(8);
    }
    return record;
  });
}

describe('CSV', () => {
  it('writes the union of keys in METRIC_KEYS order with empty cells for missing values', () => {
    const records: MetricRecord[] = [
      { 'losses/policy': 0.5, 'progress/iteration': 1 },
      { 'progress/iteration': 2, 'charts/success_rate': 0.25, 'losses/policy': NaN },
    ];
    expect(metricColumns(records)).toEqual(['progress/iteration', 'charts/success_rate', 'losses/policy']);
    expect(formatMetricsCsv(records)).toBe('progress/iteration,charts/success_rate,losses/policy\n1,,0.5\n2,0.25,NaN\n');
  });

  it('round-trips random records exactly, including NaN and infinities', () => {
    const seed = Date.now() % 1_000_000;
    const rng = createRng(seed);
    for (let trial = 0; trial < 20; trial++) {
      const records = randomRecords(rng);
      const parsed = parseMetricsCsv(formatMetricsCsv(records));
      expect(parsed.ignoredKeys).toEqual([]);
      expect(parsed.records, `seed ${seed}`).toEqual(records);
    }
  });

  it('skips unknown columns and reports them, and accepts CRLF', () => {
    const parsed = parseMetricsCsv('progress/iteration,custom/x,noise/std\r\n1,5,0.1\r\n2,6,\r\n');
    expect(parsed).toEqual({ records: [{ 'progress/iteration': 1, 'noise/std': 0.1 }, { 'progress/iteration': 2 }], ignoredKeys: ['custom/x'] });
    expect(parseMetricsCsv('')).toEqual({ records: [], ignoredKeys: [] });
  });

  it('rejects rows of the wrong width and non-numeric cells with the line number', () => {
    expect(() => parseMetricsCsv('progress/iteration,noise/std\n1,2,3\n', 'runs/a/metrics.csv'))
      .toThrow('runs/a/metrics.csv line 2 has 3 cells but the header has 2');
    expect(() => parseMetricsCsv('progress/iteration,noise/std\n1,0.1\n2,abc\n')).toThrow(ShapeError);
    expect(() => parseMetricsCsv('progress/iteration,noise/std\n1,0.1\n2,abc\n'))
      .toThrow("metrics.csv line 3, column noise/std is not a number (got 'abc')");
  });
});

describe('JSONL', () => {
  it('writes one ordered object per line with non-finite values as strings', () => {
    const line = formatMetricsJsonlLine({ 'losses/approx_kl': Infinity, 'progress/iteration': 3, 'noise/std': NaN });
    expect(line).toBe('{"progress/iteration":3,"losses/approx_kl":"Infinity","noise/std":"NaN"}');
    expect(formatMetricsJsonl([{ 'progress/iteration': 1 }, { 'progress/iteration': 2 }])).toBe('{"progress/iteration":1}\n{"progress/iteration":2}\n');
  });

  it('round-trips random records exactly', () => {
    const seed = Date.now() % 1_000_000;
    const rng = createRng(seed);
    for (let trial = 0; trial < 20; trial++) {
      const records = randomRecords(rng);
      const parsed = parseMetricsJsonl(formatMetricsJsonl(records));
      expect(parsed.ignoredKeys).toEqual([]);
      expect(parsed.records, `seed ${seed}`).toEqual(records);
    }
  });

  it('skips blank lines, nulls and unknown keys, and rejects bad lines', () => {
    const parsed = parseMetricsJsonl('{"progress/iteration":1,"x/y":2,"noise/std":null}\n\n{"progress/iteration":2}\n');
    expect(parsed).toEqual({ records: [{ 'progress/iteration': 1 }, { 'progress/iteration': 2 }], ignoredKeys: ['x/y'] });
    expect(() => parseMetricsJsonl('{"progress/iteration":1}\n{oops\n')).toThrow('metrics.jsonl line 2 is not valid JSON');
    expect(() => parseMetricsJsonl('[1,2]')).toThrow('metrics.jsonl line 1 must be a JSON object of metric values');
    expect(() => parseMetricsJsonl('{"noise/std":"big"}')).toThrow('metrics.jsonl line 1: noise/std must be a number or one of "NaN", "Infinity", "-Infinity" (got "big")');
  });

  it('reads only NaN, Infinity and -Infinity as non-finite words, never a name every object has', () => {
    for (const word of ['toString', 'constructor', '__proto__', 'hasOwnProperty']) {
      expect(() => parseMetricsJsonl(`{"progress/iteration":1,"noise/std":"${word}"}\n`, 'runs/a/metrics.jsonl'), word)
        .toThrow(`runs/a/metrics.jsonl line 1: noise/std must be a number or one of "NaN", "Infinity", "-Infinity" (got "${word}")`);
    }
    expect(parseMetricsJsonl('{"noise/std":"-Infinity","losses/policy":"NaN"}\n').records).toEqual([{ 'noise/std': -Infinity, 'losses/policy': NaN }]);
  });

  it('drops a torn last line (invalid and unterminated, as a crash mid-append leaves it) with a warning naming the file and line', () => {
    const torn = parseMetricsJsonl('{"progress/iteration":1}\n{"progress/iteration":2}\n{"progress/iteration":3,"noise/s', 'runs/a/metrics.jsonl');
    expect(torn.records).toEqual([{ 'progress/iteration': 1 }, { 'progress/iteration': 2 }]);
    expect(torn.warning).toBe('runs/a/metrics.jsonl: line 3 is cut short (not valid JSON and not ended by a newline, as a crash mid-write leaves it); it was dropped');
    // A complete last line without its newline is kept, and nothing is said.
    const unterminated = parseMetricsJsonl('{"progress/iteration":1}\n{"progress/iteration":2}');
    expect(unterminated).toEqual({ records: [{ 'progress/iteration': 1 }, { 'progress/iteration': 2 }], ignoredKeys: [] });
    expect(unterminated.warning).toBeUndefined();
    // A bad line anywhere else is still refused, naming the file and line, and so is a bad last line that was ended.
    expect(() => parseMetricsJsonl('{"progress/iteration":1}\n{oops\n{"progress/iteration":3', 'runs/a/metrics.jsonl')).toThrow('runs/a/metrics.jsonl line 2 is not valid JSON');
    expect(() => parseMetricsJsonl('{"progress/iteration":1}\n{oops\n', 'runs/a/metrics.jsonl')).toThrow('runs/a/metrics.jsonl line 2 is not valid JSON');
    // A reader of text that is whole by construction (a checkpoint's history) refuses it.
    expect(() => parseMetricsJsonl('{"progress/iteration":1}\n{"progress/it', 'history', { tornLastLine: 'refuse' })).toThrow('history line 2 is not valid JSON');
  });
});

describe('series', () => {
  it('extracts (x, y) pairs of the records that have the key, and the latest value', () => {
    const records: MetricRecord[] = [
      { 'progress/iteration': 1, 'losses/policy': 0.3 },
      { 'progress/iteration': 2, 'eval/success_rate': 0.5 },
      { 'progress/iteration': 3, 'losses/policy': 0.1, 'eval/success_rate': 0.75 },
      { 'losses/policy': 0.2 },
    ];
    const series = metricSeries(records, 'losses/policy');
    expect(Array.from(series.xs)).toEqual([1, 3, 3]); // the last record lacks an iteration, so its index 3 is used
    expect(Array.from(series.ys)).toEqual([0.3, 0.1, 0.2]);
    expect(Array.from(metricSeries(records, 'eval/success_rate').xs)).toEqual([2, 3]);
    expect(latestMetric(records, 'eval/success_rate')).toBe(0.75);
    expect(latestMetric(records, 'noise/std')).toBeUndefined();
  });
});
