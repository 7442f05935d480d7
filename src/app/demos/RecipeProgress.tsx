import type { RecipeStage } from '../../protocol/recipe-api';
import { useRecipeStore } from '../store/recipe-slice';
import { progressFraction, progressText } from './demo-summary';

/** The bar of `stage` with "done / total" beside it; shown while that stage runs, waits or last ended. */
export function RecipeProgress({ stage, testId }: { stage: RecipeStage; testId: string }) {
  const current = useRecipeStore((state) => state.status?.stage === stage);
  const phase = useRecipeStore((state) => state.status?.phase ?? 'idle');
  const done = useRecipeStore((state) => state.status?.done ?? 0);
  const total = useRecipeStore((state) => state.status?.total ?? 0);
  if (!current) return null;
  const fraction = progressFraction({ done, total });
  return (
    <div className="recipe-progress" data-testid={testId} data-phase={phase} role="progressbar" aria-valuemin={0} aria-valuemax={total} aria-valuenow={done}>
      <div className="recipe-progress-track">
        <div className={`recipe-progress-fill recipe-progress-${phase}`} style={{ width: `${fraction * 100}%` }} />
      </div>
      <span className="mono">{progressText({ stage, done, total })}</span>
    </div>
  );
}
