import { useRecipeStore } from '../store/recipe-slice';
import { useRunStore } from '../store/run-slice';
import { lastEvalSuccess } from './recipe-series';
import { readyText, recipeStatusText } from './recipe-status-text';

/** Which stage runs, waits or last ended, with its current step or error sentence; then which policy the next run starts from. */
export function RecipeStatusLine() {
  const text = useRecipeStore((state) => {
    const stage = state.status?.stage;
    return recipeStatusText(state.status, stage && stage !== 'record' ? lastEvalSuccess(state.points, stage) : undefined);
  });
  const stage = useRecipeStore((state) => state.status?.stage ?? 'none');
  const phase = useRecipeStore((state) => state.status?.phase ?? 'idle');
  const runExists = useRunStore((state) => (state.status?.phase ?? 'idle') !== 'idle');
  const ready = useRecipeStore((state) => readyText(state.status, runExists));
  return (
    <div className="recipe-head">
      <p className={`recipe-status recipe-status-${phase}`} role="status" data-testid="recipe-status" data-stage={stage} data-phase={phase}>
        <span className={`phase phase-${phase}`}>{phase}</span>
        <span>{text}</span>
      </p>
      {ready && <p className="notice notice-ok recipe-ready" role="status" data-testid="recipe-ready">{ready}</p>}
    </div>
  );
}
