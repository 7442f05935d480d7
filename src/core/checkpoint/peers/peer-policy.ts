import type { WeightEntry } from '../../policy/flow-policy';
import type { MinMaxStats } from '../../policy/normalizer';
import type { FlowPolicyOptions } from '../../policy/options';
import type { DppoSettings } from './dppo-config';
import type { NamedBytes } from './peer-normalization';
import type { PeerSamplerSettings } from './reinflow-config';

/** A peer checkpoint with what travels beside it (DESIGN.md §18). */
export interface PeerCheckpointFiles {
  checkpoint: NamedBytes;
  /** `normalization.npz`: obs_min, obs_max, action_min, action_max. */
  normalization?: NamedBytes;
  /** The run's Hydra config (`.hydra/config.yaml`). */
  config?: { name: string; text: string };
}

/** What every imported peer policy gives: architecture, the tensors the file holds, normalizers, stage and notes. */
interface ImportedPeerBase {
  architecture: FlowPolicyOptions;
  /** Every tensor the file gives, by our names; a pretraining file gives the denoising net only. */
  weights: Map<string, WeightEntry>;
  /** Whether the heads (ReinFlow's noise net and critic, DPPO's critic) came from the file (a fine-tuning checkpoint). */
  withHeads: boolean;
  normalizer: { obs: MinMaxStats; action: MinMaxStats };
  stage: 'bc' | 'ppo';
  /** Where the peer's training stood: the pretraining epoch, or the fine-tuning iteration and env steps (shown, not resumed). */
  training: { iteration: number; envSteps: number };
  /** One line each: what was read and what was assumed. */
  notes: string[];
}

/** A ReinFlow flow policy (ReFlow, ShortCutFlow, PPOFlow, PPOShortCut) in our names, with its sampler settings. */
export interface ImportedFlowPolicy extends ImportedPeerBase {
  kind: 'flow';
  settings: PeerSamplerSettings;
}

/** A DPPO diffusion policy (DiffusionModel, PPODiffusion) in our names: ε-prediction, with its chain and fine-tuning settings. */
export interface ImportedDiffusionPolicy extends ImportedPeerBase {
  kind: 'diffusion';
  settings: DppoSettings;
  /** A fine-tuned file's frozen base net (PPODiffusion's `actor`), by our names: the denoising net's tensors only. */
  reference?: Map<string, WeightEntry>;
}

export type ImportedPeerPolicy = ImportedFlowPolicy | ImportedDiffusionPolicy;
