import { useRecipeStore } from '../store/recipe-slice';
import { discardRecipe, exportRecipePolicy, pauseRecipe, resumeRecipe } from './recipe-actions';

/** Pause, resume and export of the training stage in hand (only one stage runs at a time). */
export function RecipeControls() {
  const training = useRecipeStore((state) => state.status?.stage === 'pretrain' || state.status?.stage === 'offline');
  const phase = useRecipeStore((state) => state.status?.phase ?? 'idle');
  return (
    <>
      <button data-testid="recipe-pause" disabled={!training || phase !== 'running'} title="Pause after the current gradient step" onClick={() => void pauseRecipe()}>Pause</button>
      <button data-testid="recipe-resume" disabled={!training || phase !== 'paused'} onClick={() => void resumeRecipe()}>Resume</button>
      <button data-testid="recipe-discard" disabled={!training || phase !== 'paused'} title="End the paused stage without a result; the model stays as it was"
        onClick={() => void discardRecipe()}>Discard</button>
      <button data-testid="recipe-export" disabled={!training || (phase !== 'paused' && phase !== 'done')}
        title="The stage's policy as it is now (its averaged weights), as a .flowtune checkpoint" onClick={() => void exportRecipePolicy()}>
        Export .flowtune
      </button>
    </>
  );
}
