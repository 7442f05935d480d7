import { useRunStore } from '../store/run-slice';
import { clearRunView, errorText, trainerClient } from '../workers/trainer-client';
import { resetQuestion } from './reset-question';

/** Asks once before Reset; the worker then keeps the run in the Runs list and says so. */
export function ResetConfirm() {
  const asked = useRunStore((state) => state.resetAsked);
  const iteration = useRunStore((state) => state.status?.iteration ?? 0);
  const savedIteration = useRunStore((state) => state.status?.savedIteration);
  const phase = useRunStore((state) => state.status?.phase ?? 'idle');
  if (!asked || phase === 'idle') return null;
  const { setResetAsked, setRunError } = useRunStore.getState();
  const reset = async () => {
    setResetAsked(false);
    const settle = clearRunView();
    try {
      await trainerClient().reset();
      settle(true);
    } catch (error) {
      settle(false);
      setRunError(errorText(error));
    }
  };
  return (
    <div className="resume-banner" role="alertdialog" data-testid="reset-ask">
      {resetQuestion(phase, iteration, savedIteration)}
      <button data-testid="reset-confirm" onClick={() => void reset()}>Reset run</button>
      <button className="primary" data-testid="reset-cancel" onClick={() => setResetAsked(false)}>Cancel</button>
    </div>
  );
}
