/**
 * The curves behind a task's compare=methods figure, written beside it (methods-<row>.curves.json):
 * per method, each seed's in-run evaluation against env steps. A row kept from an earlier page
 * (keep=TASK:METHOD) redraws its curve from here, since its run folders need not exist any more.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { MethodId } from './methods';

export interface MethodSeedCurve {
  seed: number;
  xs: number[];
  ys: number[];
}

/** Method id → its seeds' curves. */
export type RowCurves = Partial<Record<MethodId, MethodSeedCurve[]>>;

export function curvesFileName(row: string): string {
  return `methods-${row}.curves.json`;
}

/** A run's curve as the file holds it: its finite points only (JSON has no NaN). */
export function seedCurve(seed: number, curve: { xs: ArrayLike<number>; ys: ArrayLike<number> }): MethodSeedCurve {
  const xs: number[] = [];
  const ys: number[] = [];
  for (let index = 0; index < curve.xs.length; index++) {
    if (Number.isFinite(curve.xs[index]) && Number.isFinite(curve.ys[index])) {
      xs.push(curve.xs[index]);
      ys.push(curve.ys[index]);
    }
  }
  return { seed, xs, ys };
}

export function curvesJson(curves: RowCurves): string {
  return `${JSON.stringify(curves)}\n`;
}

function isNumberArray(value: unknown): value is number[] {
  return Array.isArray(value) && value.every((entry) => typeof entry === 'number' && Number.isFinite(entry));
}

function isSeedCurve(value: unknown): value is MethodSeedCurve {
  if (typeof value !== 'object' || value === null) return false;
  const { seed, xs, ys } = value as Record<string, unknown>;
  return Number.isInteger(seed) && isNumberArray(xs) && isNumberArray(ys) && xs.length === ys.length;
}

/**
 * The kept method's curves from the page's folder: undefined when the file is not there; a file
 * that is not what this module writes is one sentence naming it.
 */
export function readKeptCurves(pageDir: string, row: string, method: MethodId): MethodSeedCurve[] | undefined {
  const file = path.join(pageDir, curvesFileName(row));
  if (!existsSync(file)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`${file} is not JSON (${(error as Error).message}); delete it to keep the row without its curve`, { cause: error });
  }
  const entry = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>)[method] : undefined;
  if (entry === undefined) return undefined;
  if (!Array.isArray(entry) || !entry.every(isSeedCurve)) {
    throw new Error(`${file}'s ${method} entry is not a list of {seed, xs, ys} curves of finite numbers; delete it to keep the row without its curve`);
  }
  return entry.map(({ seed, xs, ys }) => ({ seed, xs, ys }));
}
