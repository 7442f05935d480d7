/** The stage charts' series from the worker's points. */
import type { RecipePoint } from '../../protocol/recipe-api';

export interface StageSeries {
  /** Gradient steps of the points that carry a loss, ascending. */
  lossSteps: number[];
  losses: number[];
  /** Gradient steps of the evaluations, ascending. */
  evalSteps: number[];
  /** Deterministic eval success in [0, 1], one per eval step. */
  evalSuccess: number[];
}

/** One stage's loss curve and eval points; other stages' points and non-finite values are left out. */
export function stageSeries(points: readonly RecipePoint[], stage: RecipePoint['stage']): StageSeries {
  // Stable sort: the plot needs ascending x, and points of one step keep their arrival order.
  const ofStage = points.filter((point) => point.stage === stage).sort((a, b) => a.step - b.step);
  const withLoss = ofStage.filter((point) => Number.isFinite(point.loss));
  const withEval = ofStage.filter((point) => Number.isFinite(point.evalSuccess));
  return {
    lossSteps: withLoss.map((point) => point.step),
    losses: withLoss.map((point) => point.loss!),
    evalSteps: withEval.map((point) => point.step),
    evalSuccess: withEval.map((point) => point.evalSuccess!),
  };
}

/** The success of the stage's newest evaluation; undefined when it has not evaluated. */
export function lastEvalSuccess(points: readonly RecipePoint[], stage: RecipePoint['stage']): number | undefined {
  const evaluated = stageSeries(points, stage).evalSuccess;
  return evaluated.at(-1);
}
