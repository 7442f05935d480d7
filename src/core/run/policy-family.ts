/**
 * The policy-family port (DESIGN.md §16): what a run needs from a policy family. The Run owns
 * counters, optimizers, history, evaluation seeds, resume and rollback for every family; a
 * family builds its live policy from a config or a decoded checkpoint, acts (a rollout with what
 * its PPO loss reads back), gives the minibatch objective of its update, its deterministic actor,
 * its checkpoint contents and any state of its own that an exact resume needs.
 */
import type * as tf from '@tensorflow/tfjs';
import type { JsonObject, RunProgress } from '../checkpoint/checkpoint-types';
import type { FlowtuneContents } from '../checkpoint/checkpoint-writer';
import type { CheckpointStage, FlowtuneMetadata } from '../checkpoint/metadata';
import type { RunConfig } from '../config/run-config';
import type { BatchEnv } from '../envs/batch-env';
import type { EpisodeRecord } from '../envs/task-env';
import type { MetricRecord } from '../metrics/metric-keys';
import type { Rng } from '../random';
import type { EvalActor } from '../rl/evaluate';
import type { ObsHistory } from '../rl/obs-history';
import type { PhaseTimes } from '../rl/phase-times';
import type { MinibatchObjective } from '../rl/ppo-epochs';
import type { FamilyCheckpoint } from './family-checkpoint';
import type { RunResumeState } from './run-state';

/** One iteration's rollout as the update reads it, with its statistics. */
export interface CollectedRollout {
  /** The minibatch objective of this rollout: its row table, loss mask and loss. */
  objective: MinibatchObjective;
  /** [T, N] value predictions and value targets, for explained variance; `valueMask` marks the valid entries. */
  values: Float32Array;
  returns: Float32Array;
  valueMask: Float32Array;
  episodes: EpisodeRecord[];
  /** Env steps the rollout ran. */
  envSteps: number;
  /** Mean exploration std over the rollout. */
  meanNoiseStd: number;
  /** The scheduled noise level in force (noise/level), for families whose noise follows a schedule. */
  noiseLevel?: number;
  rolloutSeconds: number;
  /** The family's own metrics of this rollout (advantage filters, noise level). */
  metrics: MetricRecord;
}

export interface CollectInputs {
  env: BatchEnv;
  history: ObsHistory;
  config: RunConfig;
  /** Env steps before this rollout (noise and lr schedules read it). */
  envStepsBefore: number;
  /** Iterations done before this one. */
  iteration: number;
  phases: PhaseTimes;
  /** Whether this update trains only the critic (critic warm-up). */
  criticOnly: boolean;
}

/** What a checkpoint of a run holds besides the family's own tensors. */
export interface FamilySnapshot {
  config: RunConfig;
  stage: CheckpointStage;
  progress?: RunProgress;
  evalSummary?: Record<string, number>;
  /** The encoded resume state (metadata `resume`). */
  resume?: JsonObject;
  /** The family's state at the point saved (captureState), when it is not the state now. */
  state?: FamilyState;
}

/** A family's own mutable state besides its weights (running normalizers), captured at an iteration boundary. */
export type FamilyState = unknown;

/** What a family's deterministic policy takes and gives, per decision. */
export interface PolicyIo {
  nObsSteps: number;
  obsFrameSize: number;
  actionDim: number;
  /** [H, A] of the initial noise x_0 the deterministic chain starts from; absent for a policy without one. */
  x0Shape?: [number, number];
  /** [cameras, size, size, channels] of the uint8 camera images an image policy reads beside the observation; absent otherwise. */
  imageShape?: [number, number, number, number];
}

/** A family's live policy outside a run (evaluation, export, demos), or inside one (FamilyLearner). */
export interface LoadedPolicy {
  readonly kind: RunConfig['policy']['kind'];
  readonly io: PolicyIo;
  /** The deterministic policy evaluation runs. */
  evalActor(config: RunConfig): EvalActor;
  /** The deterministic policy as one ONNX graph; `description` says in one line what it takes and gives. */
  exportOnnx(metadata: FlowtuneMetadata): Promise<{ bytes: Uint8Array; description: string }>;
  /**
   * Deterministic actions for an observation drawn from `seed` in the policy's normalized input space: two
   * copies of the same weights give identical numbers (the Model panel's check that an export re-imports exactly).
   */
  probe(config: RunConfig, seed: number): Promise<Float32Array>;
  /**
   * The stochastic policy drawing one action per observation row (demos), where the family has one;
   * `stdScale` multiplies its action std (1, the default: as trained).
   */
  samplingActor?(rng: Rng, stdScale?: number): (obs: Float32Array) => Promise<Float32Array>;
  dispose(): void;
}

/** A live policy of one family, owned by a Run. */
export interface FamilyLearner extends LoadedPolicy {
  /** The trainable variables by parameter name; optimizer moments are keyed by these names. */
  namedVariables(): ReadonlyMap<string, tf.Variable>;
  /** Rejects a config this family cannot train (e.g. a flow run without exploration noise). */
  checkConfig(config: RunConfig): void;
  /** Whether rollouts start from fresh resets every iteration (GRPO's groups). */
  resetsEachIteration(config: RunConfig): boolean;
  /** Act: one iteration's rollout with what the update reads back. */
  collect(inputs: CollectInputs, rng: Rng): Promise<CollectedRollout>;
  /** The policy as checkpoint contents: weights, normalizers, metadata, optimizer moments and resume state. */
  contents(snapshot: FamilySnapshot): Promise<FlowtuneContents>;
  /** A copy of the family's own mutable state (normalizer statistics), for a save made mid-iteration. */
  captureState(): FamilyState;
  /** Adds the family's own resume fields (reward scaling) to `state`; `captured` is a boundary capture when given. */
  writeResume(state: RunResumeState, captured?: FamilyState): void;
  /** Puts back what writeResume stored. */
  readResume(state: RunResumeState | undefined): void;
  /** Puts back a decoded checkpoint's weights and normalizers (a rollback); returns a note when something could not be. */
  load(checkpoint: FamilyCheckpoint): string | undefined;
}

/** Builds a family's live policy. */
export interface PolicyFamily {
  readonly kind: RunConfig['policy']['kind'];
  /**
   * A fresh policy sized to the env (the training env gives warm-up observations for normalizers),
   * or the checkpoint's, for a run under `config`.
   */
  learner(config: RunConfig, env: BatchEnv, checkpoint: FamilyCheckpoint | undefined): Promise<{ learner: FamilyLearner; notes: string[] }>;
  /** The checkpoint's policy for evaluation, export or demos, under the config it was opened into. */
  loaded(checkpoint: FamilyCheckpoint, config: RunConfig): LoadedPolicy;
}
