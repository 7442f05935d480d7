import { ConfigError } from '../errors';

/** Observation encoder kinds (DESIGN.md §3 "Obs encoders"). */
export type ObsEncoderKind = 'state' | 'pointcloud';
/** Where the value head reads its input (DESIGN.md §3 "Value head"). */
export type ValueOn = 'obs' | 'expert';

/** Architecture of a flow policy; everything that decides parameter names and shapes. */
export interface FlowPolicyOptions {
  /** `state`: MLP over the flattened history; `pointcloud`: PointNet over [B, N, 3] plus proprioception. */
  obsEncoder: ObsEncoderKind;
  /** Per-step observation size (state) or per-step proprioception size (pointcloud). */
  obsDim: number;
  /** Observation history length `n_obs_steps`. */
  nObsSteps: number;
  /** Action chunk length H. */
  horizon: number;
  /** Action dim A. */
  actionDim: number;
  /** Residual MLP hidden sizes of the velocity net. */
  velocityHidden: number[];
  /** State encoder MLP sizes, or PointNet per-point MLP sizes; empty means identity (state only). */
  encoderHidden: number[];
  /** PointNet output size after max-pool (projection + LayerNorm). */
  pointFeatureDim: number;
  /** Sinusoidal embedding size for t and for the shortcut step size d (even). */
  timeEmbedDim: number;
  /** Whether the velocity net is conditioned on the step size d (shortcut flow). */
  shortcut: boolean;
  /** Value head MLP hidden sizes. */
  valueHidden: number[];
  /** Value head input: observation features or averaged velocity-net hidden features. */
  valueOn: ValueOn;
  /** Stop critic gradients from reaching the shared trunk. */
  detachCriticInput: boolean;
  /** Whether the policy has a learned noise head (needed for method `noise`). */
  noiseHead: boolean;
  /** Noise head MLP hidden sizes. */
  noiseHidden: number[];
}

export const DEFAULT_FLOW_POLICY_OPTIONS: Omit<FlowPolicyOptions, 'obsDim' | 'horizon' | 'actionDim'> = {
  obsEncoder: 'state',
  nObsSteps: 1,
  velocityHidden: [256, 256, 256],
  encoderHidden: [256, 256],
  pointFeatureDim: 64,
  timeEmbedDim: 32,
  shortcut: true,
  valueHidden: [256, 256],
  valueOn: 'obs',
  detachCriticInput: true,
  noiseHead: true,
  noiseHidden: [128, 128],
};

function positiveInt(field: string, value: unknown): void {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new ConfigError(field, `${field} must be a positive integer, got ${String(value)}`);
  }
}

function sizeList(field: string, value: unknown, allowEmpty: boolean): void {
  if (!Array.isArray(value) || (!allowEmpty && value.length === 0)) {
    throw new ConfigError(field, `${field} must be ${allowEmpty ? 'a' : 'a non-empty'} list of positive integers, got ${JSON.stringify(value)}`);
  }
  value.forEach((size, layerIndex) => positiveInt(`${field}[${layerIndex}]`, size));
}

function oneOf<T extends string>(field: string, value: unknown, allowed: readonly T[]): void {
  if (!allowed.includes(value as T)) {
    throw new ConfigError(field, `${field} must be one of ${allowed.join(', ')}, got ${String(value)}`);
  }
}

/** Fills defaults and validates; throws ConfigError naming the field and the allowed values. */
export function resolveFlowPolicyOptions(
  partial: Partial<FlowPolicyOptions> & Pick<FlowPolicyOptions, 'obsDim' | 'horizon' | 'actionDim'>,
): FlowPolicyOptions {
  const options: FlowPolicyOptions = { ...DEFAULT_FLOW_POLICY_OPTIONS, ...partial };
  oneOf('obsEncoder', options.obsEncoder, ['state', 'pointcloud'] as const);
  positiveInt('obsDim', options.obsDim);
  positiveInt('nObsSteps', options.nObsSteps);
  positiveInt('horizon', options.horizon);
  positiveInt('actionDim', options.actionDim);
  sizeList('velocityHidden', options.velocityHidden, false);
  sizeList('encoderHidden', options.encoderHidden, options.obsEncoder === 'state');
  positiveInt('pointFeatureDim', options.pointFeatureDim);
  positiveInt('timeEmbedDim', options.timeEmbedDim);
  if (options.timeEmbedDim % 2 !== 0) {
    throw new ConfigError('timeEmbedDim', `timeEmbedDim must be even (sin and cos halves), got ${options.timeEmbedDim}`);
  }
  if (typeof options.shortcut !== 'boolean') throw new ConfigError('shortcut', `shortcut must be true or false, got ${String(options.shortcut)}`);
  sizeList('valueHidden', options.valueHidden, true);
  oneOf('valueOn', options.valueOn, ['obs', 'expert'] as const);
  if (typeof options.detachCriticInput !== 'boolean') {
    throw new ConfigError('detachCriticInput', `detachCriticInput must be true or false, got ${String(options.detachCriticInput)}`);
  }
  if (typeof options.noiseHead !== 'boolean') throw new ConfigError('noiseHead', `noiseHead must be true or false, got ${String(options.noiseHead)}`);
  sizeList('noiseHidden', options.noiseHidden, true);
  return options;
}

/** Size of the observation features the encoder emits. */
export function obsFeatureDim(options: FlowPolicyOptions): number {
  const flatProprio = options.nObsSteps * options.obsDim;
  if (options.obsEncoder === 'pointcloud') return options.pointFeatureDim + flatProprio;
  const hidden = options.encoderHidden;
  return hidden.length === 0 ? flatProprio : hidden[hidden.length - 1];
}
