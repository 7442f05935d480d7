import { CheckpointError } from '../../errors';
import type { WeightEntry } from '../../policy/flow-policy';
import type { MinMaxStats } from '../../policy/normalizer';
import { expectedParameterShapes } from '../../policy/param-shapes';
import type { ShortcutCombination } from '../../policy/options';
import { DEFAULT_FLOW_POLICY_OPTIONS, REINFLOW_GYM_LAYOUT, resolveFlowPolicyOptions, type FlowPolicyOptions, type ReflowLayout } from '../../policy/options';
import { TORCH_ACTIVATIONS, type TorchActivation } from '../../policy/torch-mlp';
import { readNpz } from '../torch/npz-reader';
import { isPickleDict, stateDictTensors, type PickleDict } from '../torch/pickle-values';
import { toFloat32, type ForeignTensor } from '../torch/tensor-dtypes';
import { readTorchCheckpoint } from '../torch/torch-pt-reader';
import { HydraConfig, isBoolean, isNumber, isString } from './hydra-config';
import { inferPeerMlp, type PeerName } from './peer-mlp-names';
import { flowMlpNames, NOISE_LOGVAR_BOUNDS, peerModuleNames, ppoFlowHeadNames } from './reinflow-names';

export interface NamedBytes {
  name: string;
  bytes: Uint8Array;
}

/** A peer checkpoint with what travels beside it (DESIGN.md §18). */
export interface PeerCheckpointFiles {
  checkpoint: NamedBytes;
  /** `normalization.npz`: obs_min, obs_max, action_min, action_max. */
  normalization?: NamedBytes;
  /** The run's Hydra config (`.hydra/config.yaml`). */
  config?: { name: string; text: string };
}

/** How the imported policy samples, from the peer's config or its Gym defaults. */
export interface PeerSamplerSettings {
  denoiseSteps: number;
  nActionSteps: number;
  /** ReinFlow's denoised_clip_value with clip_intermediate_actions (0 = off). */
  denoisedClamp: number;
  /** Exploration-noise std bounds (fine-tuned files: from the noise net's stored log σ² bounds). */
  stdMin: number;
  stdMax: number;
}

/** A ReinFlow policy in our names: architecture, the tensors the file holds, normalizers and sampler settings. */
export interface ImportedPeerPolicy {
  architecture: FlowPolicyOptions;
  /** Every tensor the file gives, by our names; a pretraining file gives the velocity net only. */
  weights: Map<string, WeightEntry>;
  /** Whether the noise net and critic came from the file (a PPOFlow checkpoint). */
  withHeads: boolean;
  normalizer: { obs: MinMaxStats; action: MinMaxStats };
  stage: 'bc' | 'ppo';
  settings: PeerSamplerSettings;
  /** One line each: what was read and what was assumed. */
  notes: string[];
}

/** ReinFlow's Gym fine-tuning defaults (`ft_ppo_reflow_mlp.yaml`) where no config is given. */
const GYM_DEFAULTS = { denoiseSteps: 4, denoisedClamp: 1, stdMin: 0.1, stdMax: 0.24, criticHidden: [256, 256, 256], noiseHidden: [64, 64] };

const isActivation = (value: unknown): value is TorchActivation => typeof value === 'string' && (TORCH_ACTIVATIONS as readonly string[]).includes(value);

function topDict(files: PeerCheckpointFiles): PickleDict {
  const value = readTorchCheckpoint(files.checkpoint.bytes, { label: files.checkpoint.name });
  if (!isPickleDict(value)) throw new CheckpointError(`${files.checkpoint.name} does not hold a dict at the top, as ReinFlow's trainers save`);
  return value;
}

function stateDict(top: PickleDict, key: string, label: string): Map<string, ForeignTensor> {
  const value = top.get(key);
  if (!isPickleDict(value)) throw new CheckpointError(`${label} has no state dict under '${key}'`);
  return stateDictTensors(value);
}

/** obs and action min/max from `normalization.npz`, each a finite vector with min ≤ max. */
export function readNormalization(file: NamedBytes | undefined, label: string): { obs: MinMaxStats; action: MinMaxStats } {
  if (!file) throw new CheckpointError(`${label} needs its normalization.npz (obs_min, obs_max, action_min, action_max): put it beside the checkpoint or give normalization=FILE.npz`);
  const arrays = readNpz(file.bytes, { label: file.name });
  const vector = (key: string): number[] => {
    const tensor = arrays.get(key);
    if (!tensor) throw new CheckpointError(`${file.name} has no '${key}' (a normalization.npz holds obs_min, obs_max, action_min, action_max)`);
    const values = [...toFloat32(tensor)];
    if (tensor.shape.length !== 1 || values.length === 0 || !values.every(Number.isFinite)) {
      throw new CheckpointError(`${file.name}: '${key}' must be a non-empty vector of finite numbers, got shape [${tensor.shape.join(', ')}]`);
    }
    return values;
  };
  const pair = (prefix: string): MinMaxStats => {
    const min = vector(`${prefix}_min`);
    const max = vector(`${prefix}_max`);
    if (min.length !== max.length) throw new CheckpointError(`${file.name}: ${prefix}_min has ${min.length} values but ${prefix}_max has ${max.length}`);
    return { min, max };
  };
  return { obs: pair('obs'), action: pair('action') };
}

/** What kind of ReinFlow file this is, refusing DPPO's look-alike and anything else. */
function fileKind(top: PickleDict, label: string, config: HydraConfig | undefined): 'pretrain' | 'finetune' {
  const target = config?.first(['model._target_'], isString);
  if (target && !/reflow\.ReFlow$|ppoflow\.PPOFlow$|shortcutflow\.ShortCutFlow$|pposhortcut\.PPOShortCut$/.test(target)) {
    throw new CheckpointError(`${label}: its config's model is ${target}; this build imports ReinFlow's ReFlow, ShortCutFlow, PPOFlow and PPOShortCut (DPPO's diffusion models come with the diffusion family)`);
  }
  const model = top.get('model');
  if (isPickleDict(model) && [...model.keys()].some((key) => typeof key === 'string' && key.startsWith('actor_ft.'))) return 'finetune';
  if (top.has('ema') && isPickleDict(model)) {
    if (!top.has('lr_scheduler') && !target) {
      throw new CheckpointError(`${label} looks like DPPO's DiffusionModel checkpoint ({epoch, model, ema, optimizer} without ReinFlow's lr_scheduler), which this build does not import yet; if it is a ReinFlow ReFlow checkpoint, give its Hydra config with peer_config=FILE.yaml`);
    }
    return 'pretrain';
  }
  const keys = [...top.keys()].map(String).join(', ');
  throw new CheckpointError(`${label} is neither a ReinFlow pretraining checkpoint ({epoch, model, ema, ...}) nor a fine-tuning one ({itr, model} with actor_ft.*); it holds ${keys}`);
}

/** The config's name for the velocity net: `model.network` in pretraining configs, `model.policy` in fine-tuning ones. */
function policyRootOf(kind: 'pretrain' | 'finetune'): string {
  return kind === 'pretrain' ? 'network' : 'policy';
}

/** ShortCutFlowMLP's embed_combination_type: the config's, else what the head's width allows (add when it cannot tell). */
function shortcutCombination(config: HydraConfig | undefined, policyRoot: string, headCondition: number, timeDim: number, notes: string[]): ShortcutCombination {
  const stated = config?.first([`model.${policyRoot}.embed_combination_type`], isString);
  if (stated === 'add' || stated === 'multiply' || stated === 'concate') return stated;
  if (headCondition !== timeDim) return 'concate';
  notes.push(`ShortCut's embed_combination_type is not in a config: add and multiply look the same in the tensors; using add, its default`);
  return 'add';
}

/** The sizes the config states must be the ones the tensors and normalization.npz give. */
function checkConfigSizes(config: HydraConfig | undefined, sizes: Record<string, number>, normalizationName: string): void {
  if (!config) return;
  for (const [key, size] of Object.entries(sizes)) {
    const stated = config.get(key);
    if (typeof stated === 'number' && stated !== size) {
      throw new CheckpointError(`${config.name} says ${key}: ${stated}, but the checkpoint's tensors with ${normalizationName} give ${size}`);
    }
  }
}

/** A 1-D or 2-D tensor's size along an axis, or the sentence naming the missing tensor. */
function sizeOf(tensors: ReadonlyMap<string, ForeignTensor>, name: string, axis: number, label: string): number {
  const tensor = tensors.get(name);
  if (!tensor) throw new CheckpointError(`${label} has no tensor '${name}'`);
  return tensor.shape[axis];
}

/** The layout's activations and sampler settings from the config, else ReinFlow's Gym defaults (said in one note). */
function layoutFromConfig(config: HydraConfig | undefined, policyRoot: string, notes: string[]): Pick<ReflowLayout, 'activation' | 'criticActivation' | 'noiseActivation'> {
  if (!config) {
    notes.push(`no Hydra config found: using ReinFlow's Gym hopper settings (activation ${REINFLOW_GYM_LAYOUT.activation}, critic ${REINFLOW_GYM_LAYOUT.criticActivation}, noise net ${REINFLOW_GYM_LAYOUT.noiseActivation}, K = ${GYM_DEFAULTS.denoiseSteps}, clip ${GYM_DEFAULTS.denoisedClamp}, noise std ${GYM_DEFAULTS.stdMin}-${GYM_DEFAULTS.stdMax}); give peer_config=FILE.yaml if the run used others`);
    return REINFLOW_GYM_LAYOUT;
  }
  const activation = config.first([`model.${policyRoot}.activation_type`], isActivation);
  if (!activation) notes.push(`${config.name} names no activation_type for the policy: using ${REINFLOW_GYM_LAYOUT.activation}`);
  return {
    activation: activation ?? REINFLOW_GYM_LAYOUT.activation,
    criticActivation: config.first(['model.critic.activation_type'], isActivation) ?? REINFLOW_GYM_LAYOUT.criticActivation,
    noiseActivation: config.first(['model.explore_net_activation_type'], isActivation) ?? REINFLOW_GYM_LAYOUT.noiseActivation,
  };
}

function samplerFromConfig(config: HydraConfig | undefined, horizon: number): PeerSamplerSettings {
  const steps = config?.first(['denoising_steps', 'model.inference_steps', 'model.max_denoising_steps'], isNumber);
  const actSteps = config?.first(['act_steps', 'horizon_steps'], isNumber);
  const clipIntermediate = config?.first(['train.clip_intermediate_actions'], isBoolean) ?? true;
  const clipValue = config?.first(['model.denoised_clip_value'], isNumber) ?? GYM_DEFAULTS.denoisedClamp;
  return {
    denoiseSteps: steps && Number.isInteger(steps) && steps > 0 ? steps : GYM_DEFAULTS.denoiseSteps,
    nActionSteps: actSteps && Number.isInteger(actSteps) && actSteps > 0 && actSteps <= horizon ? actSteps : horizon,
    denoisedClamp: clipIntermediate ? clipValue : 0,
    stdMin: config?.first(['model.min_logprob_denoising_std', 'min_std'], isNumber) ?? GYM_DEFAULTS.stdMin,
    stdMax: config?.first(['model.max_logprob_denoising_std', 'max_std'], isNumber) ?? GYM_DEFAULTS.stdMax,
  };
}

/** Copies the named tensors into our weights, strictly: every name must be there with the shape our layout gives. */
function takeTensors(tensors: ReadonlyMap<string, ForeignTensor>, names: readonly PeerName[], shapes: ReadonlyMap<string, number[]>, label: string, into: Map<string, WeightEntry>): void {
  for (const { peer, ours, transpose } of names) {
    const tensor = tensors.get(peer);
    if (!tensor) throw new CheckpointError(`${label} is missing '${peer}', which the layout its other tensors describe needs`);
    const shape = shapes.get(ours) as number[];
    const peerShape = transpose ? [shape[1], shape[0]] : shape;
    const size = peerShape.reduce((product, dim) => product * dim, 1);
    if (tensor.shape.length !== peerShape.length || tensor.shape.some((dim, axis) => dim !== peerShape[axis]) || tensor.data.length !== size) {
      throw new CheckpointError(`${label}: '${peer}' has shape [${tensor.shape.join(', ')}] where the layout needs [${peerShape.join(', ')}]`);
    }
    const values = toFloat32(tensor);
    if (!values.every(Number.isFinite)) throw new CheckpointError(`${label}: '${peer}' holds a NaN or an infinity`);
    into.set(ours, { shape, data: transpose ? transposed(values, peerShape[0], peerShape[1]) : values });
  }
}

/** [rows, cols] row-major → [cols, rows]. */
export function transposed(values: Float32Array, rows: number, cols: number): Float32Array {
  const out = new Float32Array(values.length);
  for (let row = 0; row < rows; row++) for (let col = 0; col < cols; col++) out[col * rows + row] = values[row * cols + col];
  return out;
}

/** Tensors under `root` that no table entry took: refused as load_state_dict(strict=True) would. */
function refuseLeftovers(tensors: ReadonlyMap<string, ForeignTensor>, taken: ReadonlySet<string>, roots: readonly string[], label: string): void {
  const left = [...tensors.keys()].filter((name) => roots.some((root) => name.startsWith(root)) && !taken.has(name));
  if (left.length > 0) throw new CheckpointError(`${label} holds '${left[0]}'${left.length > 1 ? ` and ${left.length - 1} more` : ''}, which ReinFlow's FlowMLP layout this build reads does not have`);
}

/**
 * Reads a ReinFlow checkpoint (DESIGN.md §18): a pretraining `{epoch, model, ema, optimizer, lr_scheduler}` of ReFlow
 * (its EMA weights, as ReinFlow's fine-tuner loads them) or a fine-tuning `{itr, cnt_train_steps, model, policy}` of
 * PPOFlow (the fine-tuned net, its exploration-noise net and critic). Layer sizes come from the tensors, the
 * observation and action sizes from normalization.npz, activations and sampler settings from the config.
 * Optimizer and scheduler entries are skipped.
 */
export function readReinflowCheckpoint(files: PeerCheckpointFiles): ImportedPeerPolicy {
  const config = files.config ? HydraConfig.parse(files.config.text, files.config.name) : undefined;
  return reinflowPolicyOf(topDict(files), readNormalization(files.normalization, files.checkpoint.name), files.checkpoint.name, config, files.normalization?.name ?? 'normalization.npz');
}

/** readReinflowCheckpoint on values already read: the unpickled top dict, the normalization stats and the config. */
export function reinflowPolicyOf(
  top: PickleDict,
  normalizer: { obs: MinMaxStats; action: MinMaxStats },
  label: string,
  config: HydraConfig | undefined,
  normalizationName: string,
): ImportedPeerPolicy {
  const kind = fileKind(top, label, config);
  const notes: string[] = [];
  const tensors = kind === 'pretrain' ? stateDict(top, 'ema', label) : stateDict(top, 'model', label);
  const root = kind === 'pretrain' ? 'network.' : 'actor_ft.policy.';
  const obsDim = normalizer.obs.min.length;
  const actionDim = normalizer.action.min.length;

  const shortcut = tensors.has(`${root}t_emb.0.weight`);
  const modules = peerModuleNames(shortcut);
  // FlowMLP's first time Linear reads the sinusoid (dim wide); ShortCut's writes the embedding (dim wide).
  const timeDim = shortcut ? sizeOf(tensors, `${root}t_emb.0.weight`, 0, label) : sizeOf(tensors, `${root}time_embedding.1.weight`, 1, label);
  const velocity = inferPeerMlp(tensors, `${root}${modules.head}`, label);
  const actionSize = velocity.dims[velocity.dims.length - 1];
  const cond = tensors.has(`${root}${modules.cond}.moduleList.0.linear_1.weight`) ? inferPeerMlp(tensors, `${root}${modules.cond}`, label) : undefined;
  const headCondition = velocity.dims[0] - actionSize;
  // ShortCut adds (or multiplies) its embedding to a cond embedding as wide, or concatenates them as FlowMLP does.
  const combination = shortcut ? shortcutCombination(config, policyRootOf(kind), headCondition, timeDim, notes) : 'add';
  const condEmbedding = shortcut && combination !== 'concate' ? timeDim : headCondition - timeDim;
  const condInput = cond ? cond.dims[0] : condEmbedding;
  if (actionSize % actionDim !== 0) {
    throw new CheckpointError(`${label} outputs ${actionSize} action values, which is not a whole chunk of the ${actionDim} actions ${normalizationName} gives`);
  }
  if (condInput % obsDim !== 0 || condInput < obsDim) {
    throw new CheckpointError(`${label} reads ${condInput} observation values, which is not a whole history of the ${obsDim} observations ${normalizationName} gives`);
  }
  checkConfigSizes(config, { action_dim: actionDim, obs_dim: obsDim, horizon_steps: actionSize / actionDim, cond_steps: condInput / obsDim }, normalizationName);
  const activations = layoutFromConfig(config, policyRootOf(kind), notes);
  const settings = samplerFromConfig(config, actionSize / actionDim);
  const critic = kind === 'finetune' ? inferPeerMlp(tensors, 'critic.Q1', label) : undefined;
  const noise = kind === 'finetune' ? inferPeerMlp(tensors, 'actor_ft.explore_noise_net.mlp_logvar', label) : undefined;
  if (tensors.has('actor_ft.time_embedding_explore.weight')) {
    throw new CheckpointError(`${label}'s exploration noise reads its own step embedding (learn_explore_time_embedding), which this build does not import`);
  }

  const architecture = resolveFlowPolicyOptions({
    ...DEFAULT_FLOW_POLICY_OPTIONS,
    obsEncoder: 'state',
    obsDim,
    nObsSteps: condInput / obsDim,
    horizon: actionSize / actionDim,
    actionDim,
    velocityNet: 'reflow_mlp',
    velocityHidden: velocity.dims.slice(1, -1),
    encoderHidden: cond ? cond.dims.slice(1) : [],
    timeEmbedDim: timeDim,
    shortcut,
    valueHidden: critic ? critic.dims.slice(1, -1) : GYM_DEFAULTS.criticHidden,
    noiseHead: true,
    noiseHidden: noise ? noise.dims.slice(1, -1) : GYM_DEFAULTS.noiseHidden,
    reflow: {
      ...activations,
      residual: velocity.residual,
      layerNorm: velocity.layerNorm,
      criticResidual: critic ? critic.residual : REINFLOW_GYM_LAYOUT.criticResidual,
      criticLayerNorm: critic ? critic.layerNorm : REINFLOW_GYM_LAYOUT.criticLayerNorm,
      combination,
    },
    // ReFlow.sample and PPOFlow's rollouts evaluate at linspace(0, 1, K); ShortCut's at linspace(0, 1 − 1/K, K), our grid.
    timeGrid: shortcut ? 'uniform' : 'reinflow',
  });
  const shapes = expectedParameterShapes(architecture);
  const weights = new Map<string, WeightEntry>();
  const names = flowMlpNames(root, architecture);
  takeTensors(tensors, names, shapes, label, weights);
  const taken = new Set(names.map((name) => name.peer));
  if (kind === 'finetune') {
    if (noise && noise.dims[0] !== timeDim + (cond ? cond.dims[cond.dims.length - 1] : condInput)) {
      throw new CheckpointError(`${label}'s exploration-noise net reads ${noise.dims[0]} values, not the time and observation embeddings (${timeDim} + ${condInput}) this build feeds it`);
    }
    if (critic && critic.dims[0] !== (cond ? cond.dims[cond.dims.length - 1] : condInput)) {
      throw new CheckpointError(`${label}'s critic reads ${critic.dims[0]} raw observation values while its policy reads a cond_mlp embedding; this build's critic reads the policy's observation features`);
    }
    const heads = ppoFlowHeadNames(architecture);
    takeTensors(tensors, heads, shapes, label, weights);
    heads.forEach((name) => taken.add(name.peer));
    const bounds = noiseBounds(tensors, label);
    settings.stdMin = bounds.stdMin;
    settings.stdMax = bounds.stdMax;
    taken.add(NOISE_LOGVAR_BOUNDS.min).add(NOISE_LOGVAR_BOUNDS.max);
    refuseLeftovers(tensors, taken, ['actor_ft.', 'critic.'], label);
    notes.push(`${label}: ReinFlow ${shortcut ? 'PPOShortCut' : 'PPOFlow'} fine-tuned at iteration ${String(top.get('itr'))} (${String(top.get('cnt_train_steps'))} env steps): its fine-tuned net, exploration-noise net (std ${settings.stdMin.toFixed(4)}-${settings.stdMax.toFixed(4)}) and critic; the frozen base copy (actor_old) is not needed`);
  } else {
    refuseLeftovers(tensors, taken, [root], label);
    notes.push(`${label}: ReinFlow ${shortcut ? 'ShortCutFlow' : 'ReFlow'} pretraining checkpoint at epoch ${String(top.get('epoch'))}, its EMA weights (as ReinFlow's fine-tuner loads them); the noise net and critic start fresh`);
  }
  return { architecture, weights, withHeads: kind === 'finetune', normalizer, stage: kind === 'finetune' ? 'ppo' : 'bc', settings, notes };
}

/** std bounds from PPOFlow's stored log σ² bounds: σ = exp(logvar/2). */
function noiseBounds(tensors: ReadonlyMap<string, ForeignTensor>, label: string): { stdMin: number; stdMax: number } {
  const scalar = (name: string): number => {
    const tensor = tensors.get(name);
    if (!tensor || tensor.data.length !== 1) throw new CheckpointError(`${label} is missing the scalar '${name}'`);
    const value = Number(toFloat32(tensor)[0]);
    if (!Number.isFinite(value)) throw new CheckpointError(`${label}: '${name}' is not finite`);
    return Math.exp(value / 2);
  };
  const stdMin = scalar(NOISE_LOGVAR_BOUNDS.min);
  const stdMax = scalar(NOISE_LOGVAR_BOUNDS.max);
  if (!(stdMin > 0 && stdMax >= stdMin)) throw new CheckpointError(`${label}'s noise bounds give std ${stdMin}-${stdMax}, not 0 < min ≤ max`);
  return { stdMin, stdMax };
}
