/** The demos flow's status line, and the line saying which policy the next run starts from. */
import type { RecipePhase, RecipeStage, RecipeStatus } from '../../protocol/recipe-api';

export const STAGE_LABELS: Record<RecipeStage, string> = {
  record: 'Demonstrations',
  pretrain: 'Stage 1 (BC pretraining)',
  offline: 'Stage 2 (advantage-weighted BC)',
};

const PHASE_WORDS: Record<RecipePhase, string> = { idle: 'not started', running: 'running', paused: 'paused', done: 'done', stopped: 'cancelled', error: 'failed' };

/** The worker's lines may open with the stage they belong to, which the label already names. */
const STAGE_PREFIX = /^stage [12]:\s*/i;

/**
 * "Stage 1 (BC pretraining): step 12 / 30", or for a finished training stage its steps and final
 * eval success (the ready line says what became of its policy); before any stage, how to begin.
 */
export function recipeStatusText(status: RecipeStatus | undefined, finalEvalSuccess?: number): string {
  if (!status?.stage) return 'Nothing run yet: record demos or drop a .demos file, then pretrain.';
  const label = STAGE_LABELS[status.stage];
  if (status.stage !== 'record' && status.phase === 'done') {
    const evalText = finalEvalSuccess === undefined ? '' : `, eval success ${Math.round(finalEvalSuccess * 100)}%`;
    return `${label}: finished ${status.total.toLocaleString('en-US')} steps${evalText}`;
  }
  if (!status.message) return `${label} ${PHASE_WORDS[status.phase]}`;
  return `${label}: ${status.message.replace(STAGE_PREFIX, '')}`;
}

const POLICY_NAMES: Record<NonNullable<RecipeStatus['policyStage']>, string> = {
  bc: 'The BC policy',
  offline: 'The stage-2 (advantage-weighted BC) policy',
};

/**
 * Once a stage has made a policy and nothing runs or waits paused: it is the model, and Train
 * fine-tunes it; while a run exists, it waits for Reset.
 */
export function readyText(status: RecipeStatus | undefined, runExists = false): string | undefined {
  if (!status?.policyStage || status.phase === 'running' || status.phase === 'paused') return undefined;
  if (runExists) return `${POLICY_NAMES[status.policyStage]} is the model of the next run: the current run goes on with its own model until Reset.`;
  return `${POLICY_NAMES[status.policyStage]} is now the model: press Train to fine-tune it with PPO.`;
}
