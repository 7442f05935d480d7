/** Checks the demos flow's requests before anything runs: one sentence naming the bad field. */
import { ConfigError } from '../../src/core/errors';
import type { OfflineRequest, PretrainRequest, RecordDemosRequest } from '../../src/protocol/trainer-api';

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

function checkEval(request: { evalEvery: number; evalEpisodes: number }): void {
  integer('eval every', request.evalEvery, 0, 10_000_000);
  integer('eval episodes', request.evalEpisodes, 0, 1000);
}

export function checkPretrainRequest(request: PretrainRequest): void {
  integer('steps', request.steps, 1, 10_000_000);
  integer('batch size', request.batchSize, 1, 65_536);
  number('learning rate', request.learningRate, 1e-7, 1);
  checkEval(request);
}

export function checkOfflineRequest(request: OfflineRequest): void {
  integer('rollouts', request.rollouts, 0, 10_000);
  integer('steps', request.steps, 1, 10_000_000);
  number('beta', request.beta, 1e-3, 1e3);
  checkEval(request);
}
