import { useState } from 'react';
import { useRunStore } from '../store/run-slice';
import { errorText, trainerClient } from '../workers/trainer-client';

async function act(action: () => Promise<unknown>): Promise<void> {
  try {
    await action();
  } catch (error) {
    useRunStore.getState().setRunError(errorText(error));
  }
}

/**
 * Offers the run that was current when the page went away: Resume trains it on, Keep in Runs list
 * leaves it there with its weights, Discard deletes it after asking once. The worker's 'saved-run'
 * event removes the banner once the offer is gone, whichever way it went.
 */
export function ResumeBanner() {
  const saved = useRunStore((state) => state.savedRun);
  const [askingDiscard, setAskingDiscard] = useState(false);
  // One action at a time: a second click while the run restores would find it open and be refused.
  const [busy, setBusy] = useState(false);
  if (!saved) return null;
  const client = trainerClient();
  const run = (action: () => Promise<unknown>) => {
    setBusy(true);
    void act(action).finally(() => setBusy(false));
  };
  const name = saved.name ?? `${saved.task} run`;
  if (askingDiscard) {
    return (
      <div className="resume-banner" role="alertdialog" data-testid="discard-ask">
        Delete <b>{name}</b> with its weights from iteration {saved.iteration} and its metrics? This cannot be undone.
        <button data-testid="discard-confirm" disabled={busy} onClick={() => run(() => client.discardSaved().finally(() => setAskingDiscard(false)))}>Delete it</button>
        <button className="primary" data-testid="discard-cancel" onClick={() => setAskingDiscard(false)}>Cancel</button>
      </div>
    );
  }
  return (
    <div className="resume-banner" data-testid="resume-banner">
      The saved run <b>{name}</b> is at iteration <b data-testid="resume-iteration">{saved.iteration}</b> ({saved.envSteps.toLocaleString()} env steps, saved {new Date(saved.savedAt).toLocaleTimeString()}).
      <button className="primary" data-testid="resume" title="Restore it and train on" disabled={busy} onClick={() => run(() => client.resumeSaved())}>Resume</button>
      <button data-testid="keep-saved" title="Leave it in the Runs list with its weights, resumable there" disabled={busy} onClick={() => run(() => client.keepSaved())}>Keep in Runs list</button>
      <button data-testid="discard-saved" title="Delete it with its weights" disabled={busy} onClick={() => setAskingDiscard(true)}>Discard…</button>
    </div>
  );
}
