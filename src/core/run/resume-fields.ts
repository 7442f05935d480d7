/**
 * The checks and RNG layout that a checkpoint's `resume` metadata shares, whoever wrote it (a PPO
 * run, a stopped BC): each field is checked as it is read, and the first bad one is named in a
 * CheckpointError, so a corrupt file never reaches a live run.
 */
import type { JsonObject } from '../checkpoint/checkpoint-types';
import { CheckpointError } from '../errors';
import type { RngState } from '../random';

export type Json = Record<string, unknown>;

export function fail(field: string, what: string): never {
  throw new CheckpointError(`checkpoint resume field '${field}' ${what}`);
}

export function object(value: unknown, field: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(field, 'must be a JSON object');
  return value as Json;
}

export function finite(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) fail(field, `must be a finite number, got ${JSON.stringify(value)}`);
  return value;
}

export function count(value: unknown, field: string): number {
  if (!Number.isSafeInteger(value) || (value as number) < 0) fail(field, `must be a non-negative integer, got ${JSON.stringify(value)}`);
  return value as number;
}

export function list(value: unknown, field: string): unknown[] {
  if (!Array.isArray(value)) fail(field, 'must be a list');
  return value;
}

export function encodeRng(state: RngState): JsonObject {
  return { words: [...state.words], spare_normal: state.spareNormal };
}

export function decodeRng(value: unknown, field: string): RngState {
  const state = object(value, field);
  const words = list(state.words, `${field}.words`);
  if (words.length !== 4 || !words.every((word) => Number.isInteger(word))) fail(`${field}.words`, 'must hold four 32-bit integers');
  const spare = state.spare_normal;
  if (spare !== null) finite(spare, `${field}.spare_normal`);
  return { words: words as [number, number, number, number], spareNormal: spare as number | null };
}
