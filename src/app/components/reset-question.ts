/** The one question Reset asks, saying what becomes of the run. */
import type { RunPhase } from '../../protocol/trainer-api';

/**
 * A run that stopped with an error keeps its newest autosave; any other run is saved as Reset stops
 * it, so it keeps its weights as they are now. A run with no finished iteration keeps nothing.
 */
export function resetQuestion(phase: RunPhase, iteration: number, savedIteration: number | undefined): string {
  if (iteration === 0) return 'Reset the run? It has not finished an iteration, so nothing of it is kept.';
  const weights = phase !== 'error' ? 'its weights as they are now'
    : savedIteration === undefined ? 'its metrics only (it saved no weights)' : `its weights from iteration ${savedIteration}`;
  return `Reset the run at iteration ${iteration}? It stays in the Runs list with ${weights}, resumable there, and the charts clear.`;
}
