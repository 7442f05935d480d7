import { CheckpointError } from '../../errors';
import type { MinMaxStats } from '../../policy/normalizer';
import type { FlowPolicyOptions } from '../../policy/options';
import type { TensorData } from '../checkpoint-types';
import type { FlowtuneMetadata } from '../metadata';
import type { NpyArray } from '../torch/npy-writer';
import type { Float32Tensor, TorchWritable } from '../torch/torch-pt-writer';
import type { PeerName } from './peer-mlp-names';
import { transposed } from './peer-normalization';
import { flowMlpNames, NOISE_LOGVAR_BOUNDS, ppoFlowHeadNames } from './reinflow-names';

/** What a policy of ReinFlow's layout becomes when it goes back (DESIGN.md §18 "Going back"). */
export interface ReinflowExport {
  /** The dict `torch.save` would have written, for writeTorchCheckpoint. */
  checkpoint: TorchWritable;
  /** normalization.npz's arrays. */
  normalization: Record<string, NpyArray>;
  /** `pretrain` ({epoch, model, ema, ...} of ReFlow or ShortCutFlow) or `finetune` ({itr, cnt_train_steps, model, policy} of PPOFlow). */
  layout: 'pretrain' | 'finetune';
  /** One line each: what was written and what was left out. */
  notes: string[];
}

/** What the export reads of a decoded checkpoint. */
export interface ReinflowExportSource {
  name: string;
  architecture: FlowPolicyOptions;
  tensors: ReadonlyMap<string, TensorData>;
  metadata: FlowtuneMetadata;
  /** The BC regularizer's frozen reference policy, when the run kept one: PPOFlow's actor_old. */
  reference?: ReadonlyMap<string, TensorData>;
}

/** Our tensors under the peer's names, each Linear kernel back to torch's [out, in]. */
export function peerTensors(names: readonly PeerName[], tensors: ReadonlyMap<string, TensorData>, prefix: string, label: string): Map<string, Float32Tensor> {
  const out = new Map<string, Float32Tensor>();
  for (const { peer, ours, transpose } of names) {
    const tensor = tensors.get(ours);
    if (!tensor) throw new CheckpointError(`${label} has no '${ours}', which the peer's ${peer} needs`);
    const [rows, cols] = tensor.shape;
    out.set(`${prefix}${peer}`, transpose ? { shape: [cols, rows], data: transposed(tensor.data, rows, cols) } : { shape: [...tensor.shape], data: Float32Array.from(tensor.data) });
  }
  return out;
}

const scalar = (value: number): Float32Tensor => ({ shape: [], data: Float32Array.of(value) });

function stats(normalizer: unknown, field: string, label: string): MinMaxStats {
  const value = normalizer as Partial<MinMaxStats> | undefined;
  if (!value || !Array.isArray(value.min) || !Array.isArray(value.max)) throw new CheckpointError(`${label} holds no ${field} normalizer to write as normalization.npz`);
  return { min: value.min, max: value.max };
}

/** The policy's normalizers as normalization.npz's four arrays. */
export function normalizationArrays(metadata: FlowtuneMetadata, label: string): Record<string, NpyArray> {
  const obs = stats(metadata.normalizer.obs, 'obs', label);
  const action = stats(metadata.normalizer.action, 'action', label);
  return {
    obs_min: { shape: [obs.min.length], data: Float32Array.from(obs.min) },
    obs_max: { shape: [obs.max.length], data: Float32Array.from(obs.max) },
    action_min: { shape: [action.min.length], data: Float32Array.from(action.min) },
    action_max: { shape: [action.max.length], data: Float32Array.from(action.max) },
  };
}

/**
 * A sentence for a policy whose normalized observations are clamped (`policy.obs_clip`), which normalization.npz
 * cannot hold: the peers' env wrappers clamp only to ±1, with their clamp_obs switch.
 */
export function obsClipNotes(metadata: FlowtuneMetadata): string[] {
  const clip = (metadata.normalizer.obs as { clip?: unknown } | undefined)?.clip;
  if (typeof clip !== 'number') return [];
  return [clip === 1
    ? 'this policy clamps its normalized observations to [-1, 1] (policy.obs_clip=1), which normalization.npz cannot hold; set clamp_obs: true in the env wrapper config there'
    : `this policy clamps its normalized observations to ±${clip} (policy.obs_clip=${clip}), which normalization.npz cannot hold and the env wrappers there (clamp_obs, ±1 only) cannot repeat, so its actions on states beyond that range can differ`];
}

/** The noise std bounds the run last sampled with (its noise config), as PPOFlow's log σ² bounds. */
function noiseBounds(metadata: FlowtuneMetadata): { min: number; max: number } {
  const noise = metadata.noise as { std_min?: unknown; std_max?: unknown };
  const stdMin = typeof noise.std_min === 'number' && noise.std_min > 0 ? noise.std_min : 0.1;
  const stdMax = typeof noise.std_max === 'number' && noise.std_max >= stdMin ? noise.std_max : Math.max(stdMin, 0.24);
  return { min: Math.log(stdMin * stdMin), max: Math.log(stdMax * stdMax) };
}

/**
 * A `reflow_mlp` policy as ReinFlow's own files: a BC policy in the pretraining layout (its weights as both `model` and
 * `ema`, which ReinFlow's fine-tuner loads), a fine-tuned one in PPOFlow's layout (the fine-tuned net as `actor_ft.policy`
 * and `policy`, the exploration-noise net, the critic, and `actor_old`, PPOFlow's frozen base copy: the run's BC reference
 * when it kept one, else the fine-tuned net). Optimizer and scheduler state are not carried.
 */
export function reinflowExport(source: ReinflowExportSource): ReinflowExport {
  const { architecture, tensors, metadata, name } = source;
  if (architecture.prediction === 'epsilon') throw new CheckpointError(`format=reinflow writes a flow policy, and ${name} holds a diffusion policy; export it with format=dppo`);
  if (architecture.velocityNet !== 'reflow_mlp') {
    throw new CheckpointError(`format=reinflow writes ReinFlow's FlowMLP layout, and ${name} holds a '${architecture.velocityNet}' velocity net; start from a ReinFlow checkpoint or train with policy.velocity_net=reflow_mlp`);
  }
  const velocity = flowMlpNames('', architecture);
  const network = peerTensors(velocity, tensors, 'network.', name);
  const normalization = normalizationArrays(metadata, name);
  const model = architecture.shortcut ? 'ShortCutFlow' : 'ReFlow';
  const clamp = (metadata.config as { policy?: { denoised_clamp?: unknown } } | undefined)?.policy?.denoised_clamp ?? 0;
  const clampNote = clamp === 1 ? [] : [`this policy sampled with policy.denoised_clamp=${String(clamp)}; ReinFlow's sampler clamps every step to [-1, 1] (clip_intermediate_actions), so its actions there can differ`];
  clampNote.push(...obsClipNotes(metadata));
  if (metadata.stage !== 'ppo') {
    return {
      checkpoint: { epoch: metadata.training.iteration, model: network, ema: new Map(network), optimizer: {}, lr_scheduler: {} },
      normalization,
      layout: 'pretrain',
      notes: [`${model} pretraining layout {epoch, model, ema}: the weights as both model and ema (ReinFlow's fine-tuner loads ema); no optimizer state`, ...clampNote],
    };
  }
  if (architecture.encoderHidden.length > 0) {
    throw new CheckpointError(`${name}'s critic reads its cond_mlp embedding, but PPOFlow's CriticObs reads the raw observation; its fine-tuning layout cannot hold this critic`);
  }
  const fineTuned = peerTensors(velocity, tensors, '', name);
  const base = source.reference ? peerTensors(velocity, source.reference, '', `${name}'s BC reference`) : fineTuned;
  const modelDict = new Map<string, Float32Tensor>();
  for (const [key, tensor] of base) modelDict.set(`actor_old.${key}`, tensor);
  for (const [key, tensor] of fineTuned) modelDict.set(`actor_ft.policy.${key}`, tensor);
  const bounds = noiseBounds(metadata);
  modelDict.set(NOISE_LOGVAR_BOUNDS.min, scalar(bounds.min));
  modelDict.set(NOISE_LOGVAR_BOUNDS.max, scalar(bounds.max));
  for (const [key, tensor] of peerTensors(ppoFlowHeadNames(architecture), tensors, '', name)) modelDict.set(key, tensor);
  return {
    checkpoint: { itr: metadata.training.iteration, cnt_train_steps: metadata.training.env_steps, model: modelDict, policy: network },
    normalization,
    layout: 'finetune',
    notes: [
      `${architecture.shortcut ? 'PPOShortCut' : 'PPOFlow'} fine-tuning layout {itr, cnt_train_steps, model, policy}: the fine-tuned net, its exploration-noise net (std ${Math.exp(bounds.min / 2).toPrecision(3)}-${Math.exp(bounds.max / 2).toPrecision(3)}) and critic`,
      source.reference
        ? "actor_old (PPOFlow's frozen base copy) holds the run's BC reference policy"
        : "actor_old (PPOFlow's frozen base copy, which a run without ppo.bc_coef does not keep) holds the fine-tuned net too",
      ...clampNote,
    ],
  };
}
