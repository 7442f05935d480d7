/** The demos flow (core/studio/recipe-session) on the browser's env workers. */
import { RecipeSession, type RecipeSessionView } from '../../src/core/studio/recipe-session';
import type { TrainerEvent } from '../../src/protocol/trainer-api';
import { createBrowserVectorEnv, hardwareCores } from '../env-pool';

export function browserRecipeSession(session: RecipeSessionView, emit: (event: TrainerEvent) => void): RecipeSession {
  return new RecipeSession(session, emit, { openEnv: createBrowserVectorEnv, cores: hardwareCores() });
}
