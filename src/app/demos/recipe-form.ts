/**
 * The demos flow's forms as requests: every field is checked here, so a bad value gets one
 * sentence saying how to fix it before anything reaches the worker. The stage forms' fields are
 * config fields (pretrain.*, offline.*, eval_episodes), read and checked by their own parsers.
 */
import { parseFieldValue, type ConfigKey, type ConfigValue } from '../../core/config';
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

/** A stage form's drafts read by their config fields' own parsers; the first refusal names its key. */
function parseConfigFields<K extends ConfigKey>(draft: Record<K, string>): FormParse<{ [P in K]: ConfigValue<P> }> {
  try {
    return { request: Object.fromEntries((Object.entries(draft) as [K, string][]).map(([key, text]) => [key, parseFieldValue(key, text)])) as { [P in K]: ConfigValue<P> } };
  } catch (error) {
    return { problem: (error as Error).message };
  }
}

export function parsePretrainForm(draft: PretrainDraft): FormParse<PretrainRequest> {
  return parseConfigFields(draft);
}

export function parseOfflineForm(draft: OfflineDraft): FormParse<OfflineRequest> {
  return parseConfigFields(draft);
}
