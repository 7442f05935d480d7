/** The Gaussian policy's architecture as a checkpoint records it (`architecture.kind = 'gaussian'`). */
import { ShapeError } from '../errors';

export interface GaussianPolicyOptions {
  kind: 'gaussian';
  obsDim: number;
  actionDim: number;
  /** Hidden widths of the actor and of the critic (tanh). */
  hidden: number[];
}

const positiveInt = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value > 0;

/** Checked options; throws ShapeError naming the bad field. */
export function resolveGaussianOptions(options: Partial<GaussianPolicyOptions>): GaussianPolicyOptions {
  if (options.kind !== 'gaussian') throw new ShapeError('kind', `a Gaussian policy's architecture has kind 'gaussian', got '${String(options.kind)}'`);
  for (const field of ['obsDim', 'actionDim'] as const) {
    if (!positiveInt(options[field])) throw new ShapeError(field, `Gaussian policy ${field} must be a positive integer, got ${String(options[field])}`);
  }
  if (!Array.isArray(options.hidden) || options.hidden.length === 0 || !options.hidden.every(positiveInt)) {
    throw new ShapeError('hidden', `Gaussian policy hidden must be a non-empty list of positive integers, got ${JSON.stringify(options.hidden)}`);
  }
  return { kind: 'gaussian', obsDim: options.obsDim!, actionDim: options.actionDim!, hidden: [...options.hidden] };
}

/** Every parameter's name and shape: actor.l{i}, actor.mean, actor.log_std, critic.l{i}, critic.out. */
export function gaussianParameterShapes(options: GaussianPolicyOptions): Map<string, number[]> {
  const shapes = new Map<string, number[]>();
  for (const net of ['actor', 'critic'] as const) {
    let width = options.obsDim;
    options.hidden.forEach((size, layer) => {
      shapes.set(`${net}.l${layer}.kernel`, [width, size]);
      shapes.set(`${net}.l${layer}.bias`, [size]);
      width = size;
    });
    const head = net === 'actor' ? 'mean' : 'out';
    shapes.set(`${net}.${head}.kernel`, [width, net === 'actor' ? options.actionDim : 1]);
    shapes.set(`${net}.${head}.bias`, [net === 'actor' ? options.actionDim : 1]);
  }
  shapes.set('actor.log_std', [options.actionDim]);
  return shapes;
}

/** Critic parameters take the critic learning rate. */
export function isGaussianCriticParameter(name: string): boolean {
  return name.startsWith('critic.');
}
