import type { FaultKind } from '../../protocol/trainer-api';
import { useRunStore } from '../store/run-slice';
import { errorText, trainerClient } from '../workers/trainer-client';

/** Fault injection for tests; rendered only in non-production builds opened with ?faults=1. */
export function FaultPanel() {
  const inject = async (kind: FaultKind) => {
    try {
      await trainerClient().injectFault(kind);
    } catch (error) {
      useRunStore.getState().setRunError(errorText(error));
    }
  };
  return (
    <section className="panel fault-panel" data-testid="fault-panel">
      <h2>Fault injection (test build)</h2>
      <div className="row">
        <button data-testid="fault-trainer" onClick={() => void inject('trainer-throw')}>Throw in trainer</button>
        <button data-testid="fault-env" onClick={() => void inject('env-crash')}>Crash an env worker</button>
        <button data-testid="fault-nonfinite" onClick={() => void inject('nonfinite-updates')}>Non-finite updates</button>
      </div>
    </section>
  );
}
