/**
 * A sweep folder's summary.json read back (DESIGN.md §11): the SweepSummary the sweep wrote plus
 * its finished runs' results. Every field is checked, so a hand-edited or truncated file is
 * refused with the field it lacks instead of drawing a broken table.
 */
import { ImportError } from '../errors';
import type { Spread } from '../metrics/spread';
import type { SweepRunResult, SweepSummary, VariantSummary } from './sweep-summary';

export type SweepSummaryFile = SweepSummary & { runs: SweepRunResult[] };

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

class FieldReader {
  constructor(private readonly source: string, private readonly where: string, private readonly json: Json) {}

  private fail(field: string, wanted: string): never {
    throw new ImportError(`${this.source} is not a sweep summary: ${this.where}${field} must be ${wanted}`);
  }

  number(field: string): number {
    const value = this.json[field];
    return typeof value === 'number' && Number.isFinite(value) ? value : this.fail(field, 'a finite number');
  }

  string(field: string): string {
    const value = this.json[field];
    return typeof value === 'string' ? value : this.fail(field, 'a string');
  }

  spreadOrNull(field: string): Spread | null {
    return this.json[field] === null ? null : this.spread(field);
  }

  numberOrNull(field: string): number | null {
    return this.json[field] === null ? null : this.number(field);
  }

  numbers(field: string): number[] {
    const value = this.json[field];
    return Array.isArray(value) && value.every((item) => typeof item === 'number') ? value as number[] : this.fail(field, 'a list of numbers');
  }

  objects(field: string): Json[] {
    const value = this.json[field];
    return Array.isArray(value) && value.every(isObject) ? value as Json[] : this.fail(field, 'a list of objects');
  }

  spread(field: string): Spread {
    const value = this.json[field];
    if (!isObject(value)) this.fail(field, 'an object with mean, std, min and max');
    const inner = new FieldReader(this.source, `${this.where}${field}.`, value);
    return { mean: inner.number('mean'), std: inner.number('std'), min: inner.number('min'), max: inner.number('max') };
  }
}

function variantSummary(source: string, json: Json, index: number): VariantSummary {
  const read = new FieldReader(source, `variants[${index}].`, json);
  // A sweep measured by return (a task without a success rule) has success null and a return spread.
  return {
    variant: read.string('variant'), seeds: read.numbers('seeds'), success: read.spreadOrNull('success'),
    ...(json.return !== undefined ? { return: read.spread('return') } : {}),
    envSteps: read.number('envSteps'), wallSeconds: read.spread('wallSeconds'), vsBaseline: read.numberOrNull('vsBaseline'),
  };
}

function runResult(source: string, json: Json, index: number): SweepRunResult {
  const read = new FieldReader(source, `runs[${index}].`, json);
  return {
    id: read.string('id'), variant: read.string('variant'), seed: read.number('seed'), successRate: read.numberOrNull('successRate'),
    meanReturn: read.number('meanReturn'), envSteps: read.number('envSteps'), wallSeconds: read.number('wallSeconds'),
  };
}

/** The checked summary; throws ImportError naming `source` and the first bad field. */
export function parseSweepSummaryJson(json: unknown, source = 'summary.json'): SweepSummaryFile {
  if (!isObject(json)) throw new ImportError(`${source} is not a sweep summary: it must be a JSON object`);
  const read = new FieldReader(source, '', json);
  if (json.rankedBy !== undefined && json.rankedBy !== 'return') throw new ImportError(`${source} is not a sweep summary: rankedBy must be "return" when present`);
  const variants = read.objects('variants').map((variant, index) => variantSummary(source, variant, index));
  const byReturn = json.rankedBy === 'return';
  const lacking = variants.findIndex((variant) => (byReturn ? variant.return === undefined : variant.success === null));
  if (lacking >= 0) throw new ImportError(`${source} is not a sweep summary: variants[${lacking}].${byReturn ? 'return' : 'success'} must be an object with mean, std, min and max`);
  return {
    preset: read.string('preset'), task: read.string('task'), evalEpisodes: read.number('evalEpisodes'), evalSeed: read.number('evalSeed'),
    finishedRuns: read.number('finishedRuns'), plannedRuns: read.number('plannedRuns'),
    ...(byReturn ? { rankedBy: 'return' as const } : {}), variants,
    runs: read.objects('runs').map((run, index) => runResult(source, run, index)),
  };
}
