import { TrainingError } from '../../errors';
import { checkEnvArray, checkRolloutArray, checkRolloutSize, isValid, type FlatArray, type RolloutSize } from './rollout-layout';

/**
 * What a rollout records per decision, for the advantage estimators
 * (DESIGN.md §4). All [T, N] arrays are time-major flat (t·N + envIndex).
 */
export interface RolloutSignals extends RolloutSize {
  /** [T, N] chunk reward R_t = Σ_j γ^j·r_j over the env steps the chunk ran. */
  rewards: FlatArray;
  /** [T, N] value estimates V(obs_t). */
  values: FlatArray;
  /** [T, N] nonzero where the chunk ended in a termination (bootstrap 0). */
  terminated: FlatArray;
  /** [T, N] nonzero where the chunk ended in a truncation (bootstrap V(final_obs)). Termination wins if both are set. */
  truncated: FlatArray;
  /** [T, N] optional: nonzero where the chunk reached success (GRPO's filter reads it). */
  success?: FlatArray;
  /** [T, N] τ_t, the number of env steps the chunk ran (≥ 1); the chunk discount is γ^τ. */
  chunkSteps: FlatArray;
  /** [T, N] V(final_obs), the observation before auto-reset; read only where truncated. */
  finalValues: FlatArray;
  /** [N] V of the observation after the last step, bootstrapping step T−1 when it is not done. */
  bootstrapValues: FlatArray;
  /** [T, N] optional loss mask; entries with 0 are ignored and come out as 0. */
  mask?: FlatArray;
}

/** Throws a ShapeError for a wrongly sized array and a TrainingError for a valid chunk with τ < 1. */
export function checkRolloutSignals(signals: RolloutSignals): void {
  checkRolloutSize(signals);
  for (const field of ['rewards', 'values', 'terminated', 'truncated', 'chunkSteps', 'finalValues'] as const) {
    checkRolloutArray(field, signals[field], signals);
  }
  if (signals.mask !== undefined) checkRolloutArray('mask', signals.mask, signals);
  checkEnvArray('bootstrapValues', signals.bootstrapValues, signals);
  const total = signals.numSteps * signals.numEnvs;
  for (let flatIndex = 0; flatIndex < total; flatIndex++) {
    if (!isValid(signals.mask, flatIndex)) continue;
    const tau = signals.chunkSteps[flatIndex];
    if (!(tau >= 1)) {
      throw new TrainingError(`chunkSteps at step ${Math.floor(flatIndex / signals.numEnvs)} of env ${flatIndex % signals.numEnvs} is ${tau}; a chunk runs at least 1 env step`);
    }
  }
}

/** How a truncated episode's last step is valued: bootstrapped from V(final_obs), or as a termination (as CleanRL does). */
export type TruncationMode = 'bootstrap' | 'terminate';

/** The signals with every truncation counted as a termination when `mode` is 'terminate'; the same object otherwise. */
export function withTruncation(signals: RolloutSignals, mode: TruncationMode): RolloutSignals {
  if (mode === 'bootstrap') return signals;
  const terminated = Float32Array.from(signals.terminated, (value, index) => (value !== 0 || signals.truncated[index] !== 0 ? 1 : 0));
  return { ...signals, terminated, truncated: new Float32Array(terminated.length) };
}

/** How a step's successor is valued: the chunk ended by termination, by truncation, or goes on. */
export type StepEnd = 'terminated' | 'truncated' | 'continues';

/** The end kind of valid entry (t, envIndex). */
export function stepEnd(signals: RolloutSignals, flatIndex: number): StepEnd {
  if (signals.terminated[flatIndex] !== 0) return 'terminated';
  if (signals.truncated[flatIndex] !== 0) return 'truncated';
  return 'continues';
}

/**
 * V'_t of DESIGN.md §4: 0 on termination, V(final_obs) on truncation,
 * V_{t+1} otherwise (the bootstrap value at t = T−1). A valid step that
 * continues into a masked step is an inconsistent rollout, since mask 0 only
 * follows a done; reading the masked value would leak it, so that throws.
 */
export function successorValue(signals: RolloutSignals, step: number, envIndex: number): number {
  const flatIndex = step * signals.numEnvs + envIndex;
  const end = stepEnd(signals, flatIndex);
  if (end === 'terminated') return 0;
  if (end === 'truncated') return signals.finalValues[flatIndex];
  if (step === signals.numSteps - 1) return signals.bootstrapValues[envIndex];
  const nextIndex = flatIndex + signals.numEnvs;
  if (!isValid(signals.mask, nextIndex)) {
    throw new TrainingError(`mask drops step ${step + 1} of env ${envIndex} although step ${step} is neither terminated nor truncated; a masked step must follow a done`);
  }
  return signals.values[nextIndex];
}

/** Advantage estimates and value targets, both [T, N], 0 where masked. */
export interface AdvantageResult {
  /** [T, N] */
  advantages: Float32Array;
  /** [T, N] value targets. */
  returns: Float32Array;
}
