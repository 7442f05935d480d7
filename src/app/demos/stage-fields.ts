/** The fields of the two training stages' forms (config fields; their defaults are the config's), with what each does. */
import type { DraftFieldSpec } from './DraftField';

export const PRETRAIN_FIELDS: DraftFieldSpec<'pretrain'>[] = [
  { field: 'pretrain.steps', label: 'steps', doc: 'Gradient steps of flow-matching BC on the held demos.', testId: 'pretrain-steps', min: 1 },
  { field: 'pretrain.batch_size', label: 'batch size', doc: 'Demo samples (observation, action chunk) per gradient step.', testId: 'pretrain-batch', min: 1 },
  { field: 'pretrain.lr', label: 'learning rate', doc: 'Adam learning rate of the velocity net.', testId: 'pretrain-lr', step: 'any', min: 0 },
  { field: 'pretrain.eval_every', label: 'eval every (steps)', doc: 'Deterministic evaluation every this many steps and at the end (0 = only at the end).', testId: 'pretrain-eval-every', min: 0 },
  { field: 'eval_episodes', label: 'eval episodes', doc: 'Episodes per evaluation (0 = none).', testId: 'pretrain-eval-episodes', min: 0 },
];

export const OFFLINE_FIELDS: DraftFieldSpec<'offline'>[] = [
  { field: 'offline.rollouts', label: 'rollouts', doc: 'Episodes of the stage-1 policy rolled out with the stochastic sampler; the critic is fitted on them and the demos (0 = demos only).', testId: 'offline-rollouts', min: 0 },
  { field: 'offline.steps', label: 'steps', doc: 'Gradient steps of advantage-weighted flow BC.', testId: 'offline-steps', min: 1 },
  { field: 'offline.beta', label: 'beta', doc: 'Temperature of the weights exp(Â/β): smaller follows the advantage more sharply.', testId: 'offline-beta', step: 'any', min: 0 },
  { field: 'offline.eval_every', label: 'eval every (steps)', doc: 'Deterministic evaluation at the start, every this many steps and at the end (0 = start and end only).', testId: 'offline-eval-every', min: 0 },
  { field: 'eval_episodes', label: 'eval episodes', doc: 'Episodes per evaluation (0 = none).', testId: 'offline-eval-episodes', min: 0 },
];
