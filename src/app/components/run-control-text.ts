/**
 * What Pause and Stop do, in words that match the trainer (workers/trainer/training-session.ts):
 * Pause parks the run at its next decision and saves it there; Stop does the same (also from a
 * paused run) and marks the run stopped. Both keep weights, optimizer state and metrics.
 */

export const PAUSE_TITLE = 'Pause: the run halts at its next decision (mid-rollout or mid-update) and is saved there; '
  + 'Step runs one iteration, Resume goes on exactly as if it had never paused';

export const STOP_TITLE = 'Stop: ends training for now; the run is saved with its weights, optimizer state and metrics and stays the current run. '
  + 'Resume continues it exactly; Reset… ends it and clears the charts';

/**
 * One line beside the phase while the run is halted, saying what is kept and what comes next;
 * undefined otherwise. Where it halted is the status bar's line, from the trainer.
 */
export function haltedHint(phase: string): string | undefined {
  if (phase === 'paused') return 'paused and saved: Resume or Step continues exactly where it halted';
  if (phase === 'stopped') return 'stopped and saved with its weights and metrics: Resume continues it, Reset… ends it';
  return undefined;
}
