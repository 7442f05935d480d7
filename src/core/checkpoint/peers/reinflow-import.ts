import { CheckpointError } from '../../errors';
import type { WeightEntry } from '../../policy/flow-policy';
import type { MinMaxStats } from '../../policy/normalizer';
import { expectedParameterShapes } from '../../policy/param-shapes';
import { DEFAULT_FLOW_POLICY_OPTIONS, REINFLOW_GYM_LAYOUT, resolveFlowPolicyOptions } from '../../policy/options';
import { isPickleDict, type PickleDict } from '../torch/pickle-values';
import { toFloat32, type ForeignTensor } from '../torch/tensor-dtypes';
import { HydraConfig, isString } from './hydra-config';
import { inferPeerMlp } from './peer-mlp-names';
import { readNormalization } from './peer-normalization';
import type { ImportedFlowPolicy, PeerCheckpointFiles } from './peer-policy';
import { peerCount, peerStateDict, peerTensorSize, peerTopDict, refusePeerLeftovers, takePeerTensors } from './peer-tensors';
import { checkConfigSizes, GYM_DEFAULTS, layoutFromConfig, policyRootOf, samplerFromConfig, shortcutCombination } from './reinflow-config';
import { flowMlpNames, NOISE_LOGVAR_BOUNDS, peerModuleNames, ppoFlowHeadNames } from './reinflow-names';

export { readNormalization, type NamedBytes } from './peer-normalization';
export type { PeerSamplerSettings } from './reinflow-config';
export type { ImportedFlowPolicy, ImportedPeerPolicy, PeerCheckpointFiles } from './peer-policy';

const FLOW_LAYOUT = "ReinFlow's FlowMLP layout";

/** What kind of ReinFlow file this is, refusing DPPO's look-alike (readPeerCheckpoint sends those to the DPPO reader) and anything else. */
function fileKind(top: PickleDict, label: string, config: HydraConfig | undefined): 'pretrain' | 'finetune' {
  const target = config?.first(['model._target_'], isString);
  if (target && !/reflow\.ReFlow$|ppoflow\.PPOFlow$|shortcutflow\.ShortCutFlow$|pposhortcut\.PPOShortCut$/.test(target)) {
    throw new CheckpointError(`${label}: its config's model is ${target}; this build imports ReinFlow's ReFlow, ShortCutFlow, PPOFlow and PPOShortCut, and DPPO's DiffusionModel and PPODiffusion`);
  }
  const model = top.get('model');
  if (isPickleDict(model) && [...model.keys()].some((key) => typeof key === 'string' && key.startsWith('actor_ft.'))) return 'finetune';
  if (top.has('ema') && isPickleDict(model)) {
    if (!top.has('lr_scheduler') && !target) {
      throw new CheckpointError(`${label} looks like DPPO's DiffusionModel checkpoint ({epoch, model, ema, optimizer} without ReinFlow's lr_scheduler), not ReinFlow's; if it is a ReinFlow ReFlow checkpoint, give its Hydra config with peer_config=FILE.yaml`);
    }
    return 'pretrain';
  }
  const keys = [...top.keys()].map(String).join(', ');
  throw new CheckpointError(`${label} is neither a ReinFlow pretraining checkpoint ({epoch, model, ema, ...}) nor a fine-tuning one ({itr, model} with actor_ft.*); it holds ${keys}`);
}

/**
 * Reads a ReinFlow checkpoint (DESIGN.md §18): a pretraining `{epoch, model, ema, optimizer, lr_scheduler}` of ReFlow
 * (its EMA weights, as ReinFlow's fine-tuner loads them) or a fine-tuning `{itr, cnt_train_steps, model, policy}` of
 * PPOFlow (the fine-tuned net, its exploration-noise net and critic). Layer sizes come from the tensors, the
 * observation and action sizes from normalization.npz, activations and sampler settings from the config.
 * Optimizer and scheduler entries are skipped.
 */
export function readReinflowCheckpoint(files: PeerCheckpointFiles): ImportedFlowPolicy {
  const config = files.config ? HydraConfig.parse(files.config.text, files.config.name) : undefined;
  return reinflowPolicyOf(peerTopDict(files.checkpoint), readNormalization(files.normalization, files.checkpoint.name), files.checkpoint.name, config, files.normalization?.name ?? 'normalization.npz');
}

/** readReinflowCheckpoint on values already read: the unpickled top dict, the normalization stats and the config. */
export function reinflowPolicyOf(
  top: PickleDict,
  normalizer: { obs: MinMaxStats; action: MinMaxStats },
  label: string,
  config: HydraConfig | undefined,
  normalizationName: string,
): ImportedFlowPolicy {
  const kind = fileKind(top, label, config);
  const notes: string[] = [];
  const tensors = kind === 'pretrain' ? peerStateDict(top, 'ema', label) : peerStateDict(top, 'model', label);
  const root = kind === 'pretrain' ? 'network.' : 'actor_ft.policy.';
  const obsDim = normalizer.obs.min.length;
  const actionDim = normalizer.action.min.length;

  const shortcut = tensors.has(`${root}t_emb.0.weight`);
  const modules = peerModuleNames(shortcut);
  // FlowMLP's first time Linear reads the sinusoid (dim wide); ShortCut's writes the embedding (dim wide).
  const timeDim = shortcut ? peerTensorSize(tensors, `${root}t_emb.0.weight`, 0, label) : peerTensorSize(tensors, `${root}time_embedding.1.weight`, 1, label);
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
  takePeerTensors(tensors, names, shapes, label, weights);
  const taken = new Set(names.map((name) => name.peer));
  if (kind === 'finetune') {
    if (noise && noise.dims[0] !== timeDim + (cond ? cond.dims[cond.dims.length - 1] : condInput)) {
      throw new CheckpointError(`${label}'s exploration-noise net reads ${noise.dims[0]} values, not the time and observation embeddings (${timeDim} + ${condInput}) this build feeds it`);
    }
    if (critic && critic.dims[0] !== (cond ? cond.dims[cond.dims.length - 1] : condInput)) {
      throw new CheckpointError(`${label}'s critic reads ${critic.dims[0]} raw observation values while its policy reads a cond_mlp embedding; this build's critic reads the policy's observation features`);
    }
    const heads = ppoFlowHeadNames(architecture);
    takePeerTensors(tensors, heads, shapes, label, weights);
    heads.forEach((name) => taken.add(name.peer));
    const bounds = noiseBounds(tensors, label);
    settings.stdMin = bounds.stdMin;
    settings.stdMax = bounds.stdMax;
    taken.add(NOISE_LOGVAR_BOUNDS.min).add(NOISE_LOGVAR_BOUNDS.max);
    refusePeerLeftovers(tensors, taken, ['actor_ft.', 'critic.'], label, FLOW_LAYOUT);
    notes.push(`${label}: ReinFlow ${shortcut ? 'PPOShortCut' : 'PPOFlow'} fine-tuned at iteration ${String(top.get('itr'))} (${String(top.get('cnt_train_steps'))} env steps): its fine-tuned net, exploration-noise net (std ${settings.stdMin.toFixed(4)}-${settings.stdMax.toFixed(4)}) and critic; the frozen base copy (actor_old) is not needed`);
  } else {
    refusePeerLeftovers(tensors, taken, [root], label, FLOW_LAYOUT);
    notes.push(`${label}: ReinFlow ${shortcut ? 'ShortCutFlow' : 'ReFlow'} pretraining checkpoint at epoch ${String(top.get('epoch'))}, its EMA weights (as ReinFlow's fine-tuner loads them); the noise net and critic start fresh`);
  }
  const training = kind === 'finetune'
    ? { iteration: peerCount(top.get('itr')), envSteps: peerCount(top.get('cnt_train_steps')) }
    : { iteration: peerCount(top.get('epoch')), envSteps: 0 };
  return { kind: 'flow', architecture, weights, withHeads: kind === 'finetune', normalizer, stage: kind === 'finetune' ? 'ppo' : 'bc', training, settings, notes };
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
