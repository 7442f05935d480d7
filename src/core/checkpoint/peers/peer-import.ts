import { isPickleDict, type PickleDict } from '../torch/pickle-values';
import { isDppoConfig } from './dppo-config';
import { dppoPolicyOf, isDppoFineTuned, isDppoPretraining } from './dppo-import';
import { HydraConfig, isString } from './hydra-config';
import { readNormalization } from './peer-normalization';
import type { ImportedPeerPolicy, PeerCheckpointFiles } from './peer-policy';
import { peerTopDict } from './peer-tensors';
import { reinflowPolicyOf } from './reinflow-import';

/**
 * Which peer wrote the file (DESIGN.md §18): the config's `model._target_` when it names one, else the layout. DPPO's
 * DiffusionModel file looks like ReinFlow's ReFlow file but for ReinFlow's `lr_scheduler` entry; DPPO's fine-tuned
 * PPODiffusion keeps its nets as `actor.*` and `actor_ft.*`, ReinFlow's PPOFlow as `actor_old.*` and `actor_ft.policy.*`.
 */
export function peerOf(top: PickleDict, config: HydraConfig | undefined): 'reinflow' | 'dppo' {
  if (config?.first(['model._target_'], isString) !== undefined) return isDppoConfig(config) ? 'dppo' : 'reinflow';
  if (isDppoFineTuned(top)) return 'dppo';
  const model = top.get('model');
  const fineTuned = isPickleDict(model) && [...model.keys()].some((key) => String(key).startsWith('actor_ft.'));
  return !fineTuned && isDppoPretraining(top) ? 'dppo' : 'reinflow';
}

/**
 * Reads a ReinFlow or DPPO checkpoint with what travels beside it, by the reader of the peer that wrote it: a flow
 * policy (ReinFlow) or a diffusion policy (DPPO). Every problem is one CheckpointError.
 */
export function readPeerCheckpoint(files: PeerCheckpointFiles): ImportedPeerPolicy {
  const config = files.config ? HydraConfig.parse(files.config.text, files.config.name) : undefined;
  const top = peerTopDict(files.checkpoint);
  const normalizer = readNormalization(files.normalization, files.checkpoint.name);
  const label = files.checkpoint.name;
  const normalizationName = files.normalization?.name ?? 'normalization.npz';
  return peerOf(top, config) === 'dppo'
    ? dppoPolicyOf(top, normalizer, label, config, normalizationName)
    : reinflowPolicyOf(top, normalizer, label, config, normalizationName);
}
