import { ConfigError } from '../errors';
import { TORCH_ACTIVATIONS, type TorchActivation } from './torch-mlp';
import { checkImageEncoderOptions, imageFeatureSize, type ImageEncoderOptions } from './image-encoder-options';

/** Observation encoder kinds (DESIGN.md §3 "Obs encoders"; `image`: a CNN per camera, §19). */
export type ObsEncoderKind = 'state' | 'pointcloud' | 'image';
export const OBS_ENCODER_KINDS: readonly ObsEncoderKind[] = ['state', 'pointcloud', 'image'];

/** The observation type (env.obs_type) a policy reads: its encoder kind, and for images rgb or rgbd by their channels. */
export type PolicyObsType = 'state' | 'pointcloud' | 'rgb' | 'rgbd';

/** The encoder that reads observations of `obsType` (a depth camera's cloud is read as any point cloud). */
export function encoderForObsType(obsType: PolicyObsType | 'depth_pointcloud'): ObsEncoderKind {
  if (obsType === 'rgb' || obsType === 'rgbd') return 'image';
  return obsType === 'depth_pointcloud' ? 'pointcloud' : obsType;
}

/** The env.obs_type a policy reads (pointcloud for a depth camera's cloud too: the stored config tells them apart). */
export function obsTypeOfPolicy(options: Pick<FlowPolicyOptions, 'obsEncoder' | 'image'>): PolicyObsType {
  if (options.obsEncoder !== 'image') return options.obsEncoder;
  return options.image?.channels === 4 ? 'rgbd' : 'rgb';
}
/** Where the value head reads its input (DESIGN.md §3 "Value head"). */
export type ValueOn = 'obs' | 'expert';
/**
 * Velocity net families (DESIGN.md §3 "Velocity nets"; `reflow_mlp` is ReinFlow's FlowMLP, or its ShortCutFlowMLP with
 * `shortcut`, §18; `unet1d` is Diffusion Policy's conditional temporal UNet, §19).
 */
export type VelocityNetKind = 'mlp' | 'ditx' | 'reflow_mlp' | 'unet1d';
export const VELOCITY_NET_KINDS: readonly VelocityNetKind[] = ['mlp', 'ditx', 'reflow_mlp', 'unet1d'];
/**
 * Where each denoising step's velocity is evaluated (DESIGN.md §18): `uniform` at t_i = 1 − i/K, or `reinflow` at
 * ReinFlow's `ReFlow.sample` grid, its time linspace(0, 1, K)[i] (our t = 1 − i/(K − 1)), while the step stays δ = 1/K.
 */
export type TimeGridKind = 'uniform' | 'reinflow';

/**
 * ReinFlow's FlowMLP + CriticObs + ExploreNoiseNet layout (`reflow_mlp`): what its Hydra config says and the tensors
 * cannot (activations, residual style, LayerNorm).
 */
export interface ReflowLayout {
  /** FlowMLP's `activation_type` (velocity head and cond_mlp). */
  activation: TorchActivation;
  /** FlowMLP's `residual_style`. */
  residual: boolean;
  /** FlowMLP's `use_layernorm`. */
  layerNorm: boolean;
  /** CriticObs's `activation_type`, `residual_style`, `use_layernorm`. */
  criticActivation: TorchActivation;
  criticResidual: boolean;
  criticLayerNorm: boolean;
  /** PPOFlow's `explore_net_activation_type` (the exploration-noise net). */
  noiseActivation: TorchActivation;
  /** ShortCutFlowMLP's `embed_combination_type` (with `shortcut`): how its time-and-step embedding meets the cond embedding. */
  combination: ShortcutCombination;
}

/** ShortCutFlowMLP's ways to join the time-and-step embedding with the cond embedding: sum, product or concatenation. */
export type ShortcutCombination = 'add' | 'multiply' | 'concate';

/** ReinFlow's Gym hopper configs (`pre_reflow_mlp.yaml`, `ft_ppo_reflow_mlp.yaml`). */
export const REINFLOW_GYM_LAYOUT: ReflowLayout = {
  activation: 'ReLU',
  residual: true,
  layerNorm: false,
  criticActivation: 'Mish',
  criticResidual: true,
  criticLayerNorm: false,
  noiseActivation: 'Tanh',
  combination: 'add',
};

/** Architecture of a flow policy; everything that decides parameter names and shapes. */
export interface FlowPolicyOptions {
  /**
   * `state`: MLP over the flattened history; `pointcloud`: PointNet over [B, N, 3] plus proprioception; `image`: a CNN
   * over each camera's uint8 images (a separate input), its features beside the proprioception.
   */
  obsEncoder: ObsEncoderKind;
  /** Per-step observation size (state) or per-step proprioception size (pointcloud, image). */
  obsDim: number;
  /** The image encoder: its cameras, image size and channels, and its widths (image only). */
  image?: ImageEncoderOptions;
  /** Points per frame (pointcloud): each frame is [points N×3 | proprioception obsDim]. Unused for state. */
  numPoints: number;
  /** Observation history length `n_obs_steps`. */
  nObsSteps: number;
  /** Action chunk length H. */
  horizon: number;
  /** Action dim A. */
  actionDim: number;
  /** `mlp`: residual MLP on the flat chunk; `ditx`: DiT-X transformer over action tokens. */
  velocityNet: VelocityNetKind;
  /** Residual MLP hidden sizes of the velocity net (mlp). */
  velocityHidden: number[];
  /** DiT-X token width, blocks and attention heads (ditx; heads divide the width). */
  ditxDim: number;
  ditxDepth: number;
  ditxHeads: number;
  /** UNet1D channel widths, one per level (unet1d); the horizon halves between consecutive levels. */
  unetDims: number[];
  /** UNet1D conv kernel size (odd, same padding). */
  unetKernel: number;
  /** UNet1D GroupNorm groups (divide every width). */
  unetGroups: number;
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
  /** The peer layout's activations and styles (`reflow_mlp` only). */
  reflow?: ReflowLayout;
  /** Where the chain evaluates the velocity (see TimeGridKind); `uniform` unless a ReinFlow checkpoint says otherwise. */
  timeGrid?: TimeGridKind;
  /**
   * What the net's output means: `velocity` (the flow family, §3) or `epsilon`, the noise a diffusion policy predicts
   * (§17). With `epsilon` the reflow_mlp layout is DPPO's DiffusionMLP: it reads its time as given and its output as it is.
   */
  prediction?: 'velocity' | 'epsilon';
}

export const DEFAULT_FLOW_POLICY_OPTIONS: Omit<FlowPolicyOptions, 'obsDim' | 'horizon' | 'actionDim'> = {
  obsEncoder: 'state',
  numPoints: 0,
  nObsSteps: 1,
  velocityNet: 'mlp',
  velocityHidden: [256, 256, 256],
  ditxDim: 128,
  ditxDepth: 4,
  ditxHeads: 4,
  unetDims: [32, 64],
  unetKernel: 5,
  unetGroups: 8,
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
  oneOf('obsEncoder', options.obsEncoder, OBS_ENCODER_KINDS);
  positiveInt('obsDim', options.obsDim);
  positiveInt('nObsSteps', options.nObsSteps);
  positiveInt('horizon', options.horizon);
  positiveInt('actionDim', options.actionDim);
  if (options.obsEncoder === 'pointcloud') positiveInt('numPoints', options.numPoints);
  if (options.obsEncoder === 'image') {
    options.image = checkImageEncoderOptions(options.image);
    // Images carry no history yet: the rollout stores one observation's images per decision.
    if (options.nObsSteps !== 1) throw new ConfigError('nObsSteps', `an image policy reads one observation (nObsSteps 1), got ${options.nObsSteps}`);
  } else {
    delete options.image;
  }
  oneOf('velocityNet', options.velocityNet, VELOCITY_NET_KINDS);
  oneOf('timeGrid', options.timeGrid ?? 'uniform', ['uniform', 'reinflow'] as const);
  oneOf('prediction', options.prediction ?? 'velocity', ['velocity', 'epsilon'] as const);
  if (options.velocityNet === 'reflow_mlp') resolveReflowLayout(options);
  else delete options.reflow;
  sizeList('velocityHidden', options.velocityHidden, false);
  positiveInt('ditxDim', options.ditxDim);
  positiveInt('ditxDepth', options.ditxDepth);
  positiveInt('ditxHeads', options.ditxHeads);
  if (options.ditxDim % options.ditxHeads !== 0) {
    throw new ConfigError('ditxHeads', `ditxHeads (${options.ditxHeads}) must divide ditxDim (${options.ditxDim})`);
  }
  resolveUnetSizes(options);
  sizeList('encoderHidden', options.encoderHidden, options.obsEncoder !== 'pointcloud');
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

/** Total down-sampling of the horizon by the UNet1D: a factor 2 between consecutive widths of `unetDims`. */
export function unet1dDownsampling(options: Pick<FlowPolicyOptions, 'unetDims'>): number {
  return 2 ** (options.unetDims.length - 1);
}

/**
 * Checks the UNet1D sizes (always, so a checkpoint's stored values are sound); for a `unet1d` net also that the
 * groups divide every width and that the horizon halves evenly: an H the down-sampling cannot split is refused
 * rather than padded, since padded positions would be actions the net invents and the chain never executes.
 */
function resolveUnetSizes(options: FlowPolicyOptions): void {
  sizeList('unetDims', options.unetDims, false);
  positiveInt('unetKernel', options.unetKernel);
  positiveInt('unetGroups', options.unetGroups);
  if (options.unetKernel % 2 !== 1) throw new ConfigError('unetKernel', `unetKernel must be odd (same padding keeps the horizon), got ${options.unetKernel}`);
  if (options.velocityNet !== 'unet1d') return;
  const badWidth = options.unetDims.find((width) => width % options.unetGroups !== 0);
  if (badWidth !== undefined) {
    throw new ConfigError('unetGroups', `unetGroups (${options.unetGroups}) must divide every UNet1D width, but not ${badWidth} of unetDims [${options.unetDims.join(', ')}]`);
  }
  const factor = unet1dDownsampling(options);
  if (options.horizon % factor !== 0) {
    throw new ConfigError('horizon', `horizon (${options.horizon}) must be a multiple of ${factor}, the UNet1D's down-sampling over its ${options.unetDims.length} levels [${options.unetDims.join(', ')}]`);
  }
}

/** Fills and checks the `reflow_mlp` layout: its activations, a state encoder, no step-size input, residual widths. */
function resolveReflowLayout(options: FlowPolicyOptions): void {
  const layout: ReflowLayout = { ...REINFLOW_GYM_LAYOUT, ...options.reflow };
  options.reflow = layout;
  for (const field of ['activation', 'criticActivation', 'noiseActivation'] as const) oneOf(`reflow.${field}`, layout[field], TORCH_ACTIVATIONS);
  for (const field of ['residual', 'layerNorm', 'criticResidual', 'criticLayerNorm'] as const) {
    if (typeof layout[field] !== 'boolean') throw new ConfigError(`reflow.${field}`, `reflow.${field} must be true or false, got ${String(layout[field])}`);
  }
  if (options.obsEncoder !== 'state') throw new ConfigError('obsEncoder', "ReinFlow's FlowMLP (velocity net reflow_mlp) reads the state; point clouds need velocity net mlp, ditx or unet1d");
  oneOf('reflow.combination', layout.combination, ['add', 'multiply', 'concate'] as const);
  const featureDim = options.encoderHidden.length > 0 ? options.encoderHidden[options.encoderHidden.length - 1] : options.nObsSteps * options.obsDim;
  if (options.shortcut && layout.combination !== 'concate' && featureDim !== options.timeEmbedDim) {
    throw new ConfigError('reflow.combination', `ReinFlow's ShortCutFlowMLP can ${layout.combination} its time embedding (${options.timeEmbedDim}) to the cond embedding only when they are as wide, got ${featureDim}`);
  }
  if (options.timeEmbedDim < 4) throw new ConfigError('timeEmbedDim', `ReinFlow's time embedding needs timeEmbedDim ≥ 4, got ${options.timeEmbedDim}`);
  residualWidths('velocityHidden (policy.hidden)', options.velocityHidden, layout.residual);
  residualWidths('valueHidden (policy.value_hidden)', options.valueHidden, layout.criticResidual);
}

/** A residual MLP's hidden widths are one input layer plus two per block, all equal. */
function residualWidths(field: string, sizes: number[], residual: boolean): void {
  if (!residual) return;
  if (sizes.length % 2 !== 1 || sizes.some((size) => size !== sizes[0])) {
    throw new ConfigError(field, `${field} must be an odd number of equal widths for ReinFlow's residual MLP (1 + 2 per block, e.g. 256,256,256), got [${sizes.join(', ')}]`);
  }
}

/** Values in one observation frame: the state vector, [points N×3 | proprioception], or the proprioception beside images. */
export function obsFrameSize(options: FlowPolicyOptions): number {
  return options.obsEncoder === 'pointcloud' ? options.numPoints * 3 + options.obsDim : options.obsDim;
}

/**
 * Observation tokens the encoder emits (DESIGN.md §3 "Velocity nets"): one per history frame,
 * except a state encoder feeding the MLP, which encodes the flattened history as one token.
 */
export function obsTokenCount(options: FlowPolicyOptions): number {
  return options.obsEncoder === 'state' && options.velocityNet !== 'ditx' ? 1 : options.nObsSteps;
}

/** Width of one observation token. */
export function obsTokenDim(options: FlowPolicyOptions): number {
  if (options.obsEncoder === 'pointcloud') return options.pointFeatureDim + options.obsDim;
  if (options.obsEncoder === 'image') return imageFeatureSize(options.image!) + options.obsDim;
  const hidden = options.encoderHidden;
  if (hidden.length > 0) return hidden[hidden.length - 1];
  return obsTokenCount(options) === 1 ? options.nObsSteps * options.obsDim : options.obsDim;
}

/** Size of the flat observation features [B, tokens·tokenDim] the encoder emits. */
export function obsFeatureDim(options: FlowPolicyOptions): number {
  return obsTokenCount(options) * obsTokenDim(options);
}

/** Width of the velocity net's hidden features (the `value_on: expert` input). */
export function velocityHiddenDim(options: FlowPolicyOptions): number {
  if (options.velocityNet === 'ditx') return options.ditxDim;
  if (options.velocityNet === 'unet1d') return options.unetDims[0];
  // ReinFlow's residual MLP feeds its output layer the block stream, as wide as its first hidden layer.
  return options.velocityHidden[options.velocityHidden.length - 1];
}
