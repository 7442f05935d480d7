import { useRunStore } from '../store/run-slice';
import { errorText, trainerClient } from '../workers/trainer-client';

/** Offers to resume the autosaved run after a reload. */
export function ResumeBanner() {
  const saved = useRunStore((state) => state.savedRun);
  if (!saved) return null;
  const { setSavedRun, setRunError } = useRunStore.getState();
  const resume = async () => {
    try {
      await trainerClient().resumeSaved();
      setSavedRun(null);
    } catch (error) {
      setRunError(errorText(error));
    }
  };
  const discard = async () => {
    await trainerClient().discardSaved();
    setSavedRun(null);
  };
  return (
    <div className="resume-banner" data-testid="resume-banner">
      An autosaved <b>{saved.task}</b> run is stored at iteration <b data-testid="resume-iteration">{saved.iteration}</b> ({saved.envSteps.toLocaleString()} env steps, saved {new Date(saved.savedAt).toLocaleTimeString()}).
      <button className="primary" data-testid="resume" onClick={() => void resume()}>Resume</button>
      <button data-testid="discard-saved" onClick={() => void discard()}>Discard</button>
    </div>
  );
}
