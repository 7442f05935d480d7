import { selectOccupied, useRecipeStore } from '../store/recipe-slice';
import { useRunStore } from '../store/run-slice';
import { DraftField } from './DraftField';
import { pauseRecipe, recordDemos } from './recipe-actions';

/** Episodes, expert noise and seed of a recording, and Record (Cancel while it records). */
export function RecordForm() {
  const occupied = useRecipeStore(selectOccupied);
  const recording = useRecipeStore((state) => state.status?.stage === 'record' && state.status.phase === 'running');
  const noise = useRecipeStore((state) => state.drafts.record.noise);
  const task = useRunStore((state) => state.config.task);
  const hasExpert = useRunStore((state) => state.tasks.find((entry) => entry.name === state.config.task)?.hasExpert ?? true);
  if (!hasExpert) {
    return <p className="muted" data-testid="demos-no-expert">{task} has no scripted expert to record: drop a .demos file or a dataset (D4RL, robomimic, ReinFlow) made for it, or train it from a fresh policy.</p>;
  }
  return (
    <div className="record-form">
      <div className="recipe-form">
        <DraftField form="record" spec={{ field: 'episodes', label: 'episodes', doc: 'Expert episodes to record in the env workers.', testId: 'demos-episodes', min: 1 }} />
        <DraftField form="record" spec={{ field: 'seed', label: 'seed', doc: 'Episode e resets with seed + e, as npm run demos does.', testId: 'demos-seed', min: 0 }} />
      </div>
      <label className="slider" title="Gaussian noise on the scripted expert's actions: noisier demos cover more states, at some cost in success.">
        <span>expert noise</span>
        <input type="range" min={0} max={1} step={0.05} value={noise} data-testid="demos-noise"
          onChange={(event) => useRecipeStore.getState().setDraft('record', 'noise', event.target.value)} />
        <span className="mono" data-testid="demos-noise-value">{Number(noise).toFixed(2)}</span>
      </label>
      <div className="row recipe-buttons">
        <button className="primary" data-testid="demos-record" disabled={occupied !== undefined} title={occupied} onClick={() => void recordDemos()}>Record</button>
        {recording && <button data-testid="demos-cancel" title="Stop after the episodes in progress; those finished are kept" onClick={() => void pauseRecipe()}>Cancel</button>}
      </div>
    </div>
  );
}
