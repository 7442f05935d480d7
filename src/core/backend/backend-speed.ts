/**
 * The rule that picks a tfjs backend by measurement (studio and CLI alike). Pure: it sees timings,
 * never tensors.
 *
 * "Faster" means the shorter policy time of one PPO iteration at the run's sizes:
 *   iteration_s = steps_per_iteration × decision_s + updates_per_iteration × grad_step_s
 * where decision_s is one rollout decision for all num_envs envs (sampling, as a rollout does it)
 * and grad_step_s is one PPO minibatch step of ppo.minibatch_size decisions (loss, backward, Adam);
 * updates_per_iteration = ppo.epochs × minibatches per epoch. Env physics is the same on every
 * backend, so it is left out. The figure shown is samples/s = decisions per iteration ÷ iteration_s,
 * so the larger figure always wins. A tie goes to the backend earlier in `preference`.
 * A `partial` timing (its decisions alone outlasted another backend's whole iteration, so its
 * gradient step was not timed) never wins; its figure is an upper bound.
 */
import { deriveSizes } from '../config/derive';
import type { RunConfig } from '../config/run-config';
import { BackendError } from '../errors';
import type { BackendName } from './choose-backend';

/** What one PPO iteration asks of the policy, from the run's config. */
export interface IterationWorkload {
  /** Envs sampled together in one decision: num_envs. */
  decisionBatch: number;
  /** Decisions per env per iteration: env.steps_per_iteration. */
  decisionsPerIteration: number;
  /** Decisions per gradient step: ppo.minibatch_size (at most the rollout's size). */
  minibatchSize: number;
  /** Gradient steps per iteration: ppo.epochs × minibatches per epoch. */
  gradStepsPerIteration: number;
  /** Decisions stored per iteration: num_envs × steps_per_iteration. */
  samplesPerIteration: number;
}

/** Seconds measured on one backend. */
export interface BackendTiming {
  backend: BackendName;
  /** One decision for `decisionBatch` envs. */
  decisionSeconds: number;
  /** One PPO gradient step on `minibatchSize` decisions; 0 when `partial`. */
  gradStepSeconds: number;
  /** The gradient step was not timed (see the rule above). */
  partial?: boolean;
}

/** One backend's figures under the rule. */
export interface BackendSpeed extends BackendTiming {
  /** Policy seconds of one iteration (the rule's measure). */
  iterationSeconds: number;
  /** Decisions per iteration ÷ iterationSeconds (the figure shown). */
  samplesPerSecond: number;
  decisionsPerSecond: number;
  gradSamplesPerSecond: number;
}

export interface BackendVerdict {
  backend: BackendName;
  /** Every usable timing's figures, fastest first. */
  speeds: BackendSpeed[];
}

export function workloadOf(config: RunConfig): IterationWorkload {
  const sizes = deriveSizes(config);
  return {
    decisionBatch: config.num_envs,
    decisionsPerIteration: config.env.steps_per_iteration,
    minibatchSize: Math.min(config.ppo.minibatch_size, sizes.batchSize),
    gradStepsPerIteration: Math.max(1, sizes.updatesPerIteration),
    samplesPerIteration: sizes.batchSize,
  };
}

export function backendSpeed(timing: BackendTiming, workload: IterationWorkload): BackendSpeed {
  const iterationSeconds = workload.decisionsPerIteration * timing.decisionSeconds + workload.gradStepsPerIteration * timing.gradStepSeconds;
  return {
    ...timing,
    iterationSeconds,
    samplesPerSecond: workload.samplesPerIteration / iterationSeconds,
    decisionsPerSecond: workload.decisionBatch / timing.decisionSeconds,
    gradSamplesPerSecond: timing.partial ? Number.NaN : workload.minibatchSize / timing.gradStepSeconds,
  };
}

function usable(timing: BackendTiming): boolean {
  const positive = (seconds: number) => Number.isFinite(seconds) && seconds > 0;
  return positive(timing.decisionSeconds) && (timing.partial ? timing.gradStepSeconds === 0 : positive(timing.gradStepSeconds));
}

/**
 * The backend with the shortest iteration; timings that are not positive and finite are left out.
 * Throws BackendError when none is usable.
 */
export function chooseFastest(timings: readonly BackendTiming[], workload: IterationWorkload, preference: readonly BackendName[]): BackendVerdict {
  const rank = (backend: BackendName) => {
    const index = preference.indexOf(backend);
    return index < 0 ? preference.length : index;
  };
  const speeds = timings.filter(usable).map((timing) => backendSpeed(timing, workload))
    .sort((a, b) => Number(a.partial ?? false) - Number(b.partial ?? false) || a.iterationSeconds - b.iterationSeconds || rank(a.backend) - rank(b.backend));
  if (speeds.length === 0 || speeds[0].partial) {
    const given = timings.map((timing) => `${timing.backend} (${timing.decisionSeconds}, ${timing.gradStepSeconds})`).join(', ') || 'none';
    throw new BackendError(`no backend has a usable timing (positive, finite seconds per decision and per gradient step); got ${given}`);
  }
  return { backend: speeds[0].backend, speeds };
}

/** A rate as the badge and the CLI write it: 7140 → "7.1k", 2300000 → "2.3M", 12.34 → "12". */
export function formatRate(perSecond: number): string {
  if (!Number.isFinite(perSecond)) return '–';
  if (perSecond >= 1e6) return `${(perSecond / 1e6).toFixed(1)}M`;
  if (perSecond >= 1e3) return `${(perSecond / 1e3).toFixed(1)}k`;
  return perSecond >= 10 ? perSecond.toFixed(0) : perSecond.toFixed(1);
}

/** One figure: "wasm 7.1k", or "webgpu <2.3k" for a partial timing's upper bound. */
export function speedFigure(speed: Pick<BackendSpeed, 'backend' | 'samplesPerSecond' | 'partial'>): string {
  return `${speed.backend} ${speed.partial ? '<' : ''}${formatRate(speed.samplesPerSecond)}`;
}

/** "wasm 7.1k samples/s · webgpu 2.3k": the figures, fastest first. */
export function speedsSummary(speeds: readonly Pick<BackendSpeed, 'backend' | 'samplesPerSecond' | 'partial'>[]): string {
  return speeds.map((speed, index) => `${speedFigure(speed)}${index === 0 ? ' samples/s' : ''}`).join(' · ');
}
