import { CheckpointError } from '../../errors';
import type { WeightEntry } from '../../policy/flow-policy';
import type { MinMaxStats } from '../../policy/normalizer';
import { expectedParameterShapes } from '../../policy/param-shapes';
import { DEFAULT_FLOW_POLICY_OPTIONS, REINFLOW_GYM_LAYOUT, resolveFlowPolicyOptions, type FlowPolicyOptions } from '../../policy/options';
import { isPickleDict, stateDictTensors, type PickleDict } from '../torch/pickle-values';
import { toFloat32, type ForeignTensor } from '../torch/tensor-dtypes';
import { readTorchCheckpoint } from '../torch/torch-pt-reader';
import { HydraConfig, isString } from './hydra-config';
import { inferPeerMlp, type PeerName } from './peer-mlp-names';
import { readNormalization, transposed, type NamedBytes } from './peer-normalization';
import { checkConfigSizes, GYM_DEFAULTS, layoutFromConfig, policyRootOf, samplerFromConfig, shortcutCombination, type PeerSamplerSettings } from './reinflow-config';
import { flowMlpNames, NOISE_LOGVAR_BOUNDS, peerModuleNames, ppoFlowHeadNames } from './reinflow-names';

export { readNormalization, type NamedBytes } from './peer-normalization';
export type { PeerSamplerSettings } from './reinflow-config';

/** A peer checkpoint with what travels beside it (DESIGN.md §18). */
export interface PeerCheckpointFiles {
  checkpoint: NamedBytes;
  /** `normalization.npz`: obs_min, obs_max, action_min, action_max. */
  normalization?: NamedBytes;
  /** The run's Hydra config (`.hydra/config.yaml`). */
  config?: { name: string; text: string };
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
  /** Where ReinFlow's training stood: the pretraining epoch, or the fine-tuning iteration and env steps (shown, not resumed). */
  training: { iteration: number; envSteps: number };
  settings: PeerSamplerSettings;
  /** One line each: what was read and what was assumed. */
  notes: string[];
}

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

/** A 1-D or 2-D tensor's size along an axis, or the sentence naming the missing tensor. */
function sizeOf(tensors: ReadonlyMap<string, ForeignTensor>, name: string, axis: number, label: string): number {
  const tensor = tensors.get(name);
  if (!tensor) throw new CheckpointError(`${label} has no tensor '${name}'`);
  return tensor.shape[axis];
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
  const training = kind === 'finetune'
    ? { iteration: count(top.get('itr')), envSteps: count(top.get('cnt_train_steps')) }
    : { iteration: count(top.get('epoch')), envSteps: 0 };
  return { architecture, weights, withHeads: kind === 'finetune', normalizer, stage: kind === 'finetune' ? 'ppo' : 'bc', training, settings, notes };
}

/** A counter the trainer saved beside the weights (an int, or a bigint past 2^53); 0 when it is not one. */
function count(value: unknown): number {
  const number = typeof value === 'bigint' ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) && number >= 0 ? number : 0;
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
