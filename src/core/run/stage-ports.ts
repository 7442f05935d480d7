/**
 * What a host plugs into the recipe's stages 1 and 2 (DESIGN.md §2 "One path for every host",
 * §12): env opening for rollouts and evaluations, progress hooks, a clock, and the hook after
 * every gradient step where the host shows the step and pauses. The stages' evaluation is
 * `npm run eval`'s, and what they return is the `.flowtune` contents the host writes or hands on.
 */
import { diffusionActor } from '../diffusion/diffusion-actor';
import type { FlowtuneContents } from '../checkpoint/checkpoint-writer';
import type { RunConfig } from '../config/run-config';
import type { BatchEnv } from '../envs/batch-env';
import type { VectorEnvConfig } from '../envs/vector-env-config';
import type { PolicyBundle } from '../policy/policy-bundle';
import { EVAL_DEFAULTS, bundleActor } from '../rl/evaluate';
import { evaluateInBatches } from '../rl/evaluate-batches';
import { runEnvConfig, type EnvPurpose } from './run-env-config';

/** A stage's evaluation as a checkpoint's metadata `eval` stores it; success_rate only for a task with a success rule. */
export type StageEval = Record<'mean_return' | 'mean_length' | 'episodes' | 'seed', number> & { success_rate?: number };

/** `Progress` is what a loss report carries: stage 1's mean loss, stage 2's metric record. */
export interface StagePorts<Progress> {
  /** Opens a batch of envs: in this thread on the command line, Web Workers in the studio. */
  openEnv(config: VectorEnvConfig, purpose: EnvPurpose): Promise<BatchEnv>;
  /** Milliseconds (performance.now by default); the progress reports' seconds are measured with it. */
  clock?: () => number;
  /** About this many loss reports per stage: one every max(1, floor(steps / n)) steps and one at the last (20 by default). */
  progressReports?: number;
  /** One line per phase: the dataset, stage 2's rollouts, critic and weights. */
  onPhase?(line: string): void;
  /** A closed loss window, with the seconds since training started. */
  onProgress?(step: number, progress: Progress, seconds: number): void;
  /** An evaluation of `episodes` episodes starts at `step` (stage 2's start policy: step 0). */
  beforeEval?(step: number, episodes: number): void;
  onEval?(step: number, summary: StageEval): void;
  /**
   * Awaited after every gradient step: where a host shows the step and pauses. `exportNow` gives
   * the policy as it is (its averaged weights), e.g. for an export while paused.
   */
  afterStep?(step: number, exportNow: () => Promise<FlowtuneContents>): Promise<void>;
}

/** Steps per loss report. */
export function stageLogEvery(steps: number, ports: Pick<StagePorts<unknown>, 'progressReports'>): number {
  return Math.max(1, Math.floor(steps / (ports.progressReports ?? 20)));
}

/** Whether a stage evaluates after `step`: every `evalEvery` steps and at the last, when config.eval_episodes > 0. */
export function isStageEvalStep(step: number, steps: number, evalEvery: number, config: RunConfig): boolean {
  if (config.eval_episodes === 0) return false;
  return step === steps || (evalEvery > 0 && step % evalEvery === 0);
}

/** `npm run eval` with its seeds and x_0 draws on config.eval_episodes episodes, at `step`, reported to the host. */
export async function evaluateStage<P>(bundle: PolicyBundle, config: RunConfig, ports: StagePorts<P>, step: number): Promise<StageEval> {
  const episodes = config.eval_episodes;
  ports.beforeEval?.(step, episodes);
  const actor = config.policy.kind === 'diffusion' ? diffusionActor(bundle, config) : bundleActor(bundle, config);
  const result = await evaluateInBatches(actor, config, { episodes, seed: EVAL_DEFAULTS.seed, batch: EVAL_DEFAULTS.batch },
    (count) => ports.openEnv({ ...runEnvConfig(config, 'eval', false), numEnvs: count }, 'eval'));
  const summary: StageEval = {
    ...(result.success_rate !== undefined ? { success_rate: result.success_rate } : {}),
    mean_return: result.mean_return, mean_length: result.mean_length, episodes, seed: EVAL_DEFAULTS.seed,
  };
  ports.onEval?.(step, summary);
  return summary;
}
