/** Checks the demos flow's recording request before anything runs: one sentence naming the bad field (the stages' settings are config fields, checked by their own validators). */
import { ConfigError } from '../errors';
import type { RecordDemosRequest } from '../../protocol/trainer-api';

function integer(field: string, value: number, min: number, max: number): void {
  if (!Number.isInteger(value) || value < min || value > max) throw new ConfigError(field, `${field} must be an integer in [${min}, ${max}], got ${value}`);
}

function number(field: string, value: number, min: number, max: number): void {
  if (!Number.isFinite(value) || value < min || value > max) throw new ConfigError(field, `${field} must be a number in [${min}, ${max}], got ${value}`);
}

export function checkRecordRequest(request: RecordDemosRequest): void {
  integer('episodes', request.episodes, 1, 10_000);
  number('noise', request.noise, 0, 1);
  integer('seed', request.seed, 0, 2 ** 30);
}
