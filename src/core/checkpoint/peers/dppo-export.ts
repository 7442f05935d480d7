import { CheckpointError } from '../../errors';
import type { FlowPolicyOptions } from '../../policy/options';
import type { TensorData } from '../checkpoint-types';
import type { FlowtuneMetadata } from '../metadata';
import type { NpyArray } from '../torch/npy-writer';
import type { Float32Tensor, TorchWritable } from '../torch/torch-pt-writer';
import { criticObsNames, flowMlpNames } from './reinflow-names';
import { normalizationArrays, obsClipNotes, peerTensors } from './reinflow-export';

/** What a diffusion policy of DPPO's layout becomes when it goes back (DESIGN.md §18 "Going back"). */
export interface DppoExport {
  /** The dict `torch.save` would have written, for writeTorchCheckpoint. */
  checkpoint: TorchWritable;
  /** normalization.npz's arrays. */
  normalization: Record<string, NpyArray>;
  /** `pretrain` ({epoch, model, ema} of DiffusionModel) or `finetune` ({itr, model} of PPODiffusion). */
  layout: 'pretrain' | 'finetune';
  /** One line each: what was written, and the settings DPPO's config must give to run it as it ran here. */
  notes: string[];
}

/** What the export reads of a decoded checkpoint. */
export interface DppoExportSource {
  name: string;
  architecture: FlowPolicyOptions;
  tensors: ReadonlyMap<string, TensorData>;
  metadata: FlowtuneMetadata;
  /** The frozen base net the run kept (PPODiffusion's `actor`), when it kept one. */
  reference?: ReadonlyMap<string, TensorData>;
}

/** The stored run config's policy and dppo settings that DPPO's config must repeat. */
function configNote(architecture: FlowPolicyOptions, metadata: FlowtuneMetadata, finetuned: boolean): string {
  const config = metadata.config as { policy?: Record<string, unknown>; dppo?: Record<string, unknown> } | undefined;
  const policy = config?.policy ?? {};
  const clamp = policy.denoised_clamp === 0 ? 'null' : String(policy.denoised_clamp ?? 1);
  const reflow = architecture.reflow;
  const settings = [
    `denoising_steps: ${String(policy.denoise_steps)}`,
    `horizon_steps: ${architecture.horizon}`,
    `act_steps: ${String(policy.n_action_steps ?? architecture.horizon)}`,
    `cond_steps: ${architecture.nObsSteps}`,
    `activation_type: ${String(reflow?.activation)}`,
    `denoised_clip_value: ${clamp}`,
    'final_action_clip_value: 1',
    `randn_clip_value: ${String(config?.dppo?.randn_clip ?? 10)}`,
  ];
  if (typeof policy.ddim_steps === 'number' && policy.ddim_steps > 0) settings.push(`use_ddim: true`, `ddim_steps: ${policy.ddim_steps}`);
  if (finetuned) {
    settings.push(`critic activation_type: ${String(reflow?.criticActivation)}`, `ft_denoising_steps: ${String(config?.dppo?.ft_denoising_steps)}`, `min_sampling_denoising_std: ${String(config?.dppo?.min_sampling_std)}`);
  }
  return `to sample it in DPPO as it sampled here, set in its config: ${settings.join(', ')}`;
}

/**
 * A diffusion policy of DPPO's layout (`reflow_mlp` predicting ε: DiffusionMLP) as DPPO's own files: a BC policy in
 * DiffusionModel's pretraining layout (its weights as both `model` and `ema`, which DPPO's fine-tuner loads), a
 * fine-tuned one in PPODiffusion's (`network.*` and `actor.*` the frozen base net: the run's reference weights, else the
 * policy itself; `actor_ft.*` the fine-tuned net; `critic.Q1.*` the value head). Optimizer state is not carried.
 */
export function dppoExport(source: DppoExportSource): DppoExport {
  const { architecture, tensors, metadata, name } = source;
  if (architecture.prediction !== 'epsilon') {
    throw new CheckpointError(`format=dppo writes a diffusion policy, and ${name} holds a flow policy; export it with format=reinflow`);
  }
  if (architecture.image) {
    throw new CheckpointError(`format=dppo writes DPPO's state-input DiffusionMLP, and ${name} reads camera images through our CNN encoder, which DPPO's image policies (VisionDiffusionMLP on a ViT encoder) cannot hold; export it with format=tfjs`);
  }
  if (architecture.velocityNet !== 'reflow_mlp' || architecture.shortcut) {
    throw new CheckpointError(`format=dppo writes DPPO's DiffusionMLP layout, and ${name}'s ε net is '${architecture.velocityNet}'; start from a DPPO checkpoint or train with policy.velocity_net=reflow_mlp`);
  }
  const net = flowMlpNames('', architecture);
  const normalization = normalizationArrays(metadata, name);
  if (metadata.stage !== 'ppo') {
    const network = peerTensors(net, tensors, 'network.', name);
    return {
      checkpoint: { epoch: metadata.training.iteration, model: network, ema: new Map(network) },
      normalization,
      layout: 'pretrain',
      notes: [
        "DiffusionModel pretraining layout {epoch, model, ema}: the weights as both model and ema (DPPO's fine-tuner loads ema); no optimizer state",
        configNote(architecture, metadata, false),
        ...obsClipNotes(metadata),
      ],
    };
  }
  if (architecture.encoderHidden.length > 0) {
    throw new CheckpointError(`${name}'s critic reads its cond_mlp embedding, but PPODiffusion's CriticObs reads the raw observation; its fine-tuning layout cannot hold this critic`);
  }
  const base = source.reference ? peerTensors(net, source.reference, '', `${name}'s base net`) : peerTensors(net, tensors, '', name);
  const model = new Map<string, Float32Tensor>();
  // PPODiffusion's state dict: its base net under both names it is registered with, then actor_ft and the critic.
  for (const prefix of ['network.', 'actor.']) for (const [key, tensor] of base) model.set(`${prefix}${key}`, tensor);
  for (const [key, tensor] of peerTensors(net, tensors, 'actor_ft.', name)) model.set(key, tensor);
  for (const [key, tensor] of peerTensors(criticObsNames(architecture), tensors, '', name)) model.set(key, tensor);
  return {
    checkpoint: { itr: metadata.training.iteration, model },
    normalization,
    layout: 'finetune',
    notes: [
      'PPODiffusion fine-tuning layout {itr, model}: actor_ft the fine-tuned net, critic.Q1 the critic; no optimizer state',
      source.reference
        ? "network and actor (PPODiffusion's frozen base net, run for the early denoising steps) hold the run's base net"
        : 'network and actor (the frozen base net, which this checkpoint does not keep) hold the fine-tuned net too',
      configNote(architecture, metadata, true),
      ...obsClipNotes(metadata),
    ],
  };
}
