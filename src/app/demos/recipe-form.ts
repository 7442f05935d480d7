/**
 * The demos flow's forms as requests: every field is checked here, so a bad value gets one
 * sentence saying how to fix it before anything reaches the worker.
 */
import type { OfflineRequest, PretrainRequest, RecordDemosRequest } from '../../protocol/recipe-api';
import type { OfflineDraft, PretrainDraft, RecordDraft } from '../store/recipe-slice';

export type FormParse<T> = { request: T } | { problem: string };

/** A field's text as a whole number ≥ `min`, or the sentence refusing it. */
function wholeNumber(text: string, label: string, min: number): number | string {
  const trimmed = text.trim();
  const value = /^\d+$/.test(trimmed) ? Number(trimmed) : NaN;
  if (!Number.isSafeInteger(value) || value < min) return `${label} must be a whole number ≥ ${min} (got "${trimmed}").`;
  return value;
}

/** A field's text as a finite number > 0 (decimals and 1e-3 style allowed), or the sentence refusing it. */
function positiveNumber(text: string, label: string): number | string {
  const trimmed = text.trim();
  const value = trimmed === '' ? NaN : Number(trimmed);
  if (!Number.isFinite(value) || value <= 0) return `${label} must be a number > 0, like 1e-3 (got "${trimmed}").`;
  return value;
}

/** A field's text as a number in [0, 1], or the sentence refusing it. */
function unitNumber(text: string, label: string): number | string {
  const trimmed = text.trim();
  const value = trimmed === '' ? NaN : Number(trimmed);
  if (!Number.isFinite(value) || value < 0 || value > 1) return `${label} must be a number from 0 to 1 (got "${trimmed}").`;
  return value;
}

/** The first refusal among the parsed fields, or the request they make. */
function collect<T>(fields: { [K in keyof T]: number | string }): FormParse<T> {
  const problem = Object.values<number | string>(fields).find((value) => typeof value === 'string');
  if (problem !== undefined) return { problem: problem as string };
  return { request: fields as T };
}

export function parseRecordForm(draft: RecordDraft): FormParse<RecordDemosRequest> {
  return collect<RecordDemosRequest>({
    episodes: wholeNumber(draft.episodes, 'Episodes', 1),
    noise: unitNumber(draft.noise, 'Expert noise'),
    seed: wholeNumber(draft.seed, 'Seed', 0),
  });
}

export function parsePretrainForm(draft: PretrainDraft): FormParse<PretrainRequest> {
  return collect<PretrainRequest>({
    steps: wholeNumber(draft.steps, 'Steps', 1),
    batchSize: wholeNumber(draft.batchSize, 'Batch size', 1),
    learningRate: positiveNumber(draft.learningRate, 'Learning rate'),
    evalEvery: wholeNumber(draft.evalEvery, 'Eval every', 0),
    evalEpisodes: wholeNumber(draft.evalEpisodes, 'Eval episodes', 0),
  });
}

export function parseOfflineForm(draft: OfflineDraft): FormParse<OfflineRequest> {
  return collect<OfflineRequest>({
    rollouts: wholeNumber(draft.rollouts, 'Rollouts', 0),
    steps: wholeNumber(draft.steps, 'Steps', 1),
    beta: positiveNumber(draft.beta, 'Beta'),
    evalEvery: wholeNumber(draft.evalEvery, 'Eval every', 0),
    evalEpisodes: wholeNumber(draft.evalEpisodes, 'Eval episodes', 0),
  });
}
