/**
 * The studio's bounded store of recorded episodes for the gallery and
 * replay (DESIGN.md §1 journey 4): the newest training episodes, and every
 * episode of the newest evaluations, within a byte budget for their recorded
 * arrays. Pure logic; no MuJoCo, no tfjs.
 */
import type { TaskName } from '../config';
import type { EpisodeRecord } from '../envs/task-env';
import type { MetricRecord } from '../metrics/metric-keys';
import type { Run } from '../run/run';
import type { EpisodeSummary } from '../../protocol/trainer-api';

export interface EpisodeStoreLimits {
  /** Training episodes kept, newest first. */
  trainEpisodes: number;
  /** Evaluations kept (all their episodes), newest first. */
  evaluations: number;
  /** Bytes of recorded arrays (observations and qpos) kept; beyond it the oldest training episodes go first, then the oldest evaluations. */
  recordedBytes: number;
}

/**
 * 64 MiB of recorded arrays. State episodes are small (pick-cube: 101 frames × 39 values ≈ 16 KB of
 * observations), so the counts bind; a point-cloud frame carries N×3 point values (pick-cube at 128
 * points: 101 × 399 × 4 B ≈ 161 KB, at 256 points ≈ 316 KB), so 200 training episodes and 10
 * evaluations could hold 50 to 100 MB in the worker: the budget binds instead.
 */
export const DEFAULT_RECORDED_BYTES = 64 * 1024 * 1024;

export const DEFAULT_EPISODE_LIMITS: EpisodeStoreLimits = { trainEpisodes: 200, evaluations: 10, recordedBytes: DEFAULT_RECORDED_BYTES };

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
  /** What the policy observed (default state). */
  obsType?: EpisodeSummary['obsType'];
}

/** What one add() changed: the new episodes still stored, and the ids of earlier ones it evicted. */
export interface StoreChange {
  added: EpisodeSummary[];
  dropped: string[];
}

/** Bytes of a record's recorded arrays. */
export function recordedBytes(record: EpisodeRecord): number {
  return record.qpos.byteLength + (record.obs?.byteLength ?? 0);
}

function summarize(record: EpisodeRecord, source: EpisodeSummary['source'], batch: IterationEpisodes, id: string): EpisodeSummary {
  return {
    id, source, task: batch.task, iteration: batch.iteration, envIndex: record.envIndex, seed: record.seed,
    episodeReturn: record.episodeReturn, length: record.length, success: record.success,
    ...(batch.obsType !== undefined && batch.obsType !== 'state' ? { obsType: batch.obsType } : {}),
  };
}

export class EpisodeStore {
  private train: StoredEpisode[] = [];
  /** One entry per evaluation, oldest first. */
  private evals: StoredEpisode[][] = [];
  private readonly byId = new Map<string, StoredEpisode>();
  /** Never reset, so an id is never reused, even after clear(). */
  private sequence = 0;
  private bytes = 0;

  constructor(readonly limits: EpisodeStoreLimits = DEFAULT_EPISODE_LIMITS) {
    for (const [field, value] of Object.entries(limits)) {
      if (!Number.isInteger(value) || value < 0) throw new RangeError(`episode store limit ${field} must be a non-negative integer, got ${value}`);
    }
  }

  /** The iteration's finished training episodes, and its eval episodes when the record says it evaluated. */
  addIteration(run: Pick<Run, 'config' | 'iteration' | 'lastEpisodes' | 'lastEval'>, record: MetricRecord): StoreChange {
    // eval/episode_return, since a task without a success rule logs no eval/success_rate.
    const evaluated = record['eval/episode_return'] !== undefined;
    return this.add({
      task: run.config.task, iteration: run.iteration, train: run.lastEpisodes, eval: evaluated ? run.lastEval?.records : undefined, obsType: run.config.env.obs_type,
    });
  }

  /** Adds one iteration's episodes and evicts the oldest beyond the limits and the byte budget. */
  add(batch: IterationEpisodes): StoreChange {
    const stored = (record: EpisodeRecord, source: EpisodeSummary['source']): StoredEpisode => {
      const id = `${source}-${batch.iteration}-${this.sequence++}`;
      const entry = { summary: summarize(record, source, batch, id), record };
      this.byId.set(id, entry);
      this.bytes += recordedBytes(record);
      return entry;
    };
    const fresh = batch.train.map((record) => stored(record, 'train'));
    this.train.push(...fresh);
    if (batch.eval) {
      const evaluation = batch.eval.map((record) => stored(record, 'eval'));
      this.evals.push(evaluation);
      fresh.push(...evaluation);
    }
    const dropped = this.evict();
    const freshIds = new Set(fresh.map((entry) => entry.summary.id));
    return {
      added: fresh.filter((entry) => this.byId.has(entry.summary.id)).map((entry) => entry.summary),
      dropped: dropped.filter((entry) => !freshIds.has(entry.summary.id)).map((entry) => entry.summary.id),
    };
  }

  /** Removes the oldest entries beyond the counts, then beyond the byte budget: training episodes first, then whole evaluations. */
  private evict(): StoredEpisode[] {
    const dropped: StoredEpisode[] = [];
    const drop = (entries: StoredEpisode[]) => {
      for (const entry of entries) {
        this.byId.delete(entry.summary.id);
        this.bytes -= recordedBytes(entry.record);
      }
      dropped.push(...entries);
    };
    drop(this.train.splice(0, Math.max(0, this.train.length - this.limits.trainEpisodes)));
    drop(this.evals.splice(0, Math.max(0, this.evals.length - this.limits.evaluations)).flat());
    while (this.bytes > this.limits.recordedBytes) {
      const oldest = this.train.length > 0 ? [this.train.shift()!] : this.evals.shift();
      if (!oldest) break;
      drop(oldest);
    }
    return dropped;
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

  /** Bytes of the stored episodes' recorded arrays. */
  get storedBytes(): number {
    return this.bytes;
  }

  clear(): void {
    this.train = [];
    this.evals = [];
    this.byId.clear();
    this.bytes = 0;
  }
}
