/**
 * The trainer worker's bounded store of recorded episodes for the gallery and
 * replay (DESIGN.md §1 journey 4): the newest training episodes, and every
 * episode of the newest evaluations. Pure logic; no MuJoCo, no tfjs.
 */
import type { TaskName } from '../../src/core/config';
import type { EpisodeRecord } from '../../src/core/envs/task-env';
import type { EpisodeSummary } from '../../src/protocol/trainer-api';

export interface EpisodeStoreLimits {
  /** Training episodes kept, newest first. */
  trainEpisodes: number;
  /** Evaluations kept (all their episodes), newest first. */
  evaluations: number;
}

export const DEFAULT_EPISODE_LIMITS: EpisodeStoreLimits = { trainEpisodes: 200, evaluations: 10 };

export interface StoredEpisode {
  summary: EpisodeSummary;
  record: EpisodeRecord;
}

export interface IterationEpisodes {
  task: TaskName;
  iteration: number;
  /** Training episodes that finished during the iteration, in finishing order. */
  train: readonly EpisodeRecord[];
  /** The iteration's evaluation episodes in env order, when it evaluated. */
  eval?: readonly EpisodeRecord[];
}

function summarize(record: EpisodeRecord, source: EpisodeSummary['source'], task: TaskName, iteration: number, id: string): EpisodeSummary {
  return {
    id, source, task, iteration, envIndex: record.envIndex, seed: record.seed,
    episodeReturn: record.episodeReturn, length: record.length, success: record.success,
  };
}

export class EpisodeStore {
  private train: StoredEpisode[] = [];
  /** One entry per evaluation, oldest first. */
  private evals: StoredEpisode[][] = [];
  private readonly byId = new Map<string, StoredEpisode>();
  /** Never reset, so an id is never reused, even after clear(). */
  private sequence = 0;

  constructor(readonly limits: EpisodeStoreLimits = DEFAULT_EPISODE_LIMITS) {
    for (const [field, value] of Object.entries(limits)) {
      if (!Number.isInteger(value) || value < 0) throw new RangeError(`episode store limit ${field} must be a non-negative integer, got ${value}`);
    }
  }

  /** Adds one iteration's episodes, evicts the oldest beyond the limits; returns the new summaries (train, then eval). */
  add(batch: IterationEpisodes): EpisodeSummary[] {
    const stored = (record: EpisodeRecord, source: EpisodeSummary['source']): StoredEpisode => {
      const id = `${source}-${batch.iteration}-${this.sequence++}`;
      const entry = { summary: summarize(record, source, batch.task, batch.iteration, id), record };
      this.byId.set(id, entry);
      return entry;
    };
    const train = batch.train.map((record) => stored(record, 'train'));
    const evalEntries = batch.eval?.map((record) => stored(record, 'eval'));
    this.train.push(...train);
    if (evalEntries) this.evals.push(evalEntries);
    const droppedTrain = this.train.splice(0, Math.max(0, this.train.length - this.limits.trainEpisodes));
    const droppedEvals = this.evals.splice(0, Math.max(0, this.evals.length - this.limits.evaluations)).flat();
    for (const entry of [...droppedTrain, ...droppedEvals]) this.byId.delete(entry.summary.id);
    return [...train, ...(evalEntries ?? [])].map((entry) => entry.summary);
  }

  /** Every stored summary, oldest first (by iteration, then training before eval). */
  list(): EpisodeSummary[] {
    const all = [...this.train, ...this.evals.flat()].map((entry) => entry.summary);
    const order = (summary: EpisodeSummary) => Number(summary.id.slice(summary.id.lastIndexOf('-') + 1));
    return all.sort((a, b) => order(a) - order(b));
  }

  get(id: string): StoredEpisode | undefined {
    return this.byId.get(id);
  }

  get size(): number {
    return this.byId.size;
  }

  clear(): void {
    this.train = [];
    this.evals = [];
    this.byId.clear();
  }
}
