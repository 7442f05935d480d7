import { create } from 'zustand';
import type { RecipePoint, RecipeStatus } from '../../protocol/trainer-api';
import { CONFIG_FIELDS, RECORD_DEMOS_DEFAULTS, formatFieldValue, type ConfigKey } from '../../core/config';
import type { Notice } from './run-slice';

/** Where a demos-flow notice belongs: under the demonstrations, or under the stage whose call was refused. */
export type RecipeNoticePlace = 'demos' | 'pretrain' | 'offline';

export interface RecipeNotice extends Notice {
  place: RecipeNoticePlace;
}

/** The config fields the stage forms set (DESIGN.md §12); the rest come from the Config tab's config. */
export const PRETRAIN_FORM_KEYS = ['pretrain.steps', 'pretrain.batch_size', 'pretrain.lr', 'pretrain.eval_every', 'eval_episodes'] as const;
export const OFFLINE_FORM_KEYS = ['offline.rollouts', 'offline.steps', 'offline.beta', 'offline.eval_every', 'eval_episodes'] as const;

/** The forms' field text as typed, so a half-typed value survives switching tabs. */
export type RecordDraft = Record<'episodes' | 'noise' | 'seed', string>;
export type PretrainDraft = Record<(typeof PRETRAIN_FORM_KEYS)[number], string>;
export type OfflineDraft = Record<(typeof OFFLINE_FORM_KEYS)[number], string>;

export interface RecipeDrafts {
  record: RecordDraft;
  pretrain: PretrainDraft;
  offline: OfflineDraft;
}

const asText = <T extends object>(values: T) => Object.fromEntries(Object.entries(values).map(([key, value]) => [key, String(value)])) as Record<keyof T, string>;

/** The config's defaults of these fields, as text: the same ones `npm run pretrain` and `npm run offline` use. */
const configDefaults = <K extends ConfigKey>(keys: readonly K[]) => Object.fromEntries(keys.map((key) => [key, formatFieldValue(CONFIG_FIELDS[key].default)])) as Record<K, string>;

export const DEFAULT_DRAFTS: RecipeDrafts = { record: asText(RECORD_DEMOS_DEFAULTS), pretrain: configDefaults(PRETRAIN_FORM_KEYS), offline: configDefaults(OFFLINE_FORM_KEYS) };

/** The chart points with one more at the end (a new array, so selectors see the change). */
export function withPoint(points: readonly RecipePoint[], point: RecipePoint): RecipePoint[] {
  return [...points, point];
}

/** The worker's full list in place of the held one (a stage started over). */
export function replacedPoints(points: readonly RecipePoint[]): RecipePoint[] {
  return [...points];
}

interface RecipeState {
  /** The worker's last word on the demos flow; undefined until it sends one. */
  status?: RecipeStatus;
  /** Both stages' chart points, oldest first. */
  points: RecipePoint[];
  notice?: RecipeNotice;
  drafts: RecipeDrafts;
  setStatus(status: RecipeStatus): void;
  appendPoint(point: RecipePoint): void;
  replacePoints(points: readonly RecipePoint[]): void;
  setNotice(notice: RecipeNotice | undefined): void;
  setDraft<F extends keyof RecipeDrafts>(form: F, field: keyof RecipeDrafts[F], text: string): void;
}

/** Why nothing new can start in the demos flow (a stage runs, or waits paused for Resume or Discard); undefined when free. */
export function selectOccupied(state: Pick<RecipeState, 'status'>): string | undefined {
  if (state.status?.phase === 'running') return 'The demos flow is busy: wait for it, or pause or cancel it.';
  if (state.status?.phase === 'paused') return 'A stage is paused: resume or discard it first.';
  return undefined;
}

/** The "New from demos" tab's state, mirrored from the trainer worker's recipe events; plain numbers only. */
export const useRecipeStore = create<RecipeState>()((set) => ({
  points: [],
  drafts: DEFAULT_DRAFTS,
  setStatus: (status) => set({ status }),
  appendPoint: (point) => set((state) => ({ points: withPoint(state.points, point) })),
  replacePoints: (points) => set({ points: replacedPoints(points) }),
  setNotice: (notice) => set({ notice }),
  setDraft: (form, field, text) => set((state) => ({ drafts: { ...state.drafts, [form]: { ...state.drafts[form], [field]: text } } })),
}));
