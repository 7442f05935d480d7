import { useRecipeStore } from '../store/recipe-slice';
import { useRunStore } from '../store/run-slice';
import { demoSummaryText, demosMismatchText, demosObservationNote } from './demo-summary';
import { DemosDrop } from './DemosDrop';
import { exportDemos } from './recipe-actions';
import { RecipeNoticeLine } from './RecipeNoticeLine';
import { RecipeProgress } from './RecipeProgress';
import { RecordForm } from './RecordForm';

/** Where the demos come from (recorded here, or a dropped file), what is held, and its export. */
export function DemonstrationsSection() {
  const summary = useRecipeStore((state) => (state.status?.demos ? demoSummaryText(state.status.demos) : undefined));
  const busy = useRecipeStore((state) => state.status?.phase === 'running');
  const demosTask = useRecipeStore((state) => state.status?.demos?.task);
  const demosObsType = useRecipeStore((state) => state.status?.demos?.obsType);
  const task = useRunStore((state) => state.config.task);
  const obsType = useRunStore((state) => state.config.env.obs_type);
  const held = demosTask && demosObsType ? { task: demosTask, obsType: demosObsType } : undefined;
  const mismatch = held && demosMismatchText(held, task);
  const observationNote = held && demosObservationNote(held, task, obsType);
  return (
    <section className="panel recipe-section" data-testid="demos-section">
      <h2>Demonstrations</h2>
      <p className="muted small recipe-intro">Episodes of the selected task, recorded from its scripted expert or dropped as a file: what stage 1 imitates.</p>
      <div className="demos-sources">
        <RecordForm />
        <DemosDrop />
      </div>
      <RecipeProgress stage="record" testId="demos-progress" />
      <div className="demos-held">
        <span className="muted">held demos:</span>
        <span className={summary ? 'mono' : 'muted'} data-testid="demos-summary">{summary ?? 'no demos yet'}</span>
        <button data-testid="demos-export" disabled={!summary || busy} title="Save the held demos as a .demos file" onClick={() => void exportDemos()}>Export .demos</button>
      </div>
      {mismatch && <p className="notice notice-error" data-testid="demos-mismatch">{mismatch}</p>}
      {observationNote && <p className="notice small" data-testid="demos-observation">{observationNote}</p>}
      <RecipeNoticeLine place="demos" testId="demos-notice" />
    </section>
  );
}
