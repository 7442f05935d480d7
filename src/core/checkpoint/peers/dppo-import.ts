import { CheckpointError } from '../../errors';
import type { WeightEntry } from '../../policy/flow-policy';
import type { MinMaxStats } from '../../policy/normalizer';
import { DEFAULT_FLOW_POLICY_OPTIONS, resolveFlowPolicyOptions } from '../../policy/options';
import { expectedParameterShapes } from '../../policy/param-shapes';
import { isPickleDict, type PickleDict } from '../torch/pickle-values';
import { toFloat32, type ForeignTensor } from '../torch/tensor-dtypes';
import { dppoCriticFromConfig, dppoEta, dppoLayoutFromConfig, dppoSettingsFromConfig, refuseUnsupportedDppo } from './dppo-config';
import { HydraConfig } from './hydra-config';
import { inferPeerMlp } from './peer-mlp-names';
import { readNormalization } from './peer-normalization';
import type { ImportedDiffusionPolicy, PeerCheckpointFiles } from './peer-policy';
import { peerCount, peerStateDict, peerTensorSize, peerTopDict, refusePeerLeftovers, takePeerTensors } from './peer-tensors';
import { checkConfigSizes } from './reinflow-config';
import { criticObsNames, flowMlpNames } from './reinflow-names';

const DPPO_LAYOUT = "DPPO's DiffusionMLP and CriticObs layout";
/** PPODiffusion's fixed DDIM eta (EtaFixed), the one state-dict entry besides the nets. */
const ETA_LOGIT = 'eta.eta_logit';

/** DPPO's fine-tuned file holds PPODiffusion's `actor_ft.*` (a DiffusionMLP itself, not ReinFlow's `actor_ft.policy.*`). */
export function isDppoFineTuned(top: PickleDict): boolean {
  const model = top.get('model');
  if (!isPickleDict(model)) return false;
  const keys = [...model.keys()].map(String);
  return keys.some((key) => key.startsWith('actor_ft.')) && !keys.some((key) => key.startsWith('actor_ft.policy.') || key.startsWith('actor_old.'));
}

/** DPPO's pretraining file: `{epoch, model, ema}` (and, in older versions, `optimizer`), without ReinFlow's `lr_scheduler`. */
export function isDppoPretraining(top: PickleDict): boolean {
  return isPickleDict(top.get('model')) && isPickleDict(top.get('ema')) && !top.has('lr_scheduler');
}

function fileKind(top: PickleDict, label: string): 'pretrain' | 'finetune' {
  if (isDppoFineTuned(top)) return 'finetune';
  if (isPickleDict(top.get('model')) && isPickleDict(top.get('ema'))) return 'pretrain';
  const keys = [...top.keys()].map(String).join(', ');
  throw new CheckpointError(`${label} is neither a DPPO pretraining checkpoint ({epoch, model, ema}) nor a fine-tuning one ({itr, model} with actor_ft.*); it holds ${keys}`);
}

/** PPODiffusion's `network.*` and `actor.*` are one module saved twice; a difference means DPPO's annealing swapped the base net. */
function checkBaseCopies(tensors: ReadonlyMap<string, ForeignTensor>, label: string): void {
  for (const [name, tensor] of tensors) {
    if (!name.startsWith('network.')) continue;
    const twin = tensors.get(`actor.${name.slice('network.'.length)}`);
    if (!twin) throw new CheckpointError(`${label} holds '${name}' but not 'actor.${name.slice('network.'.length)}', its copy in PPODiffusion's base net`);
    const a = toFloat32(tensor);
    const b = toFloat32(twin);
    if (a.length !== b.length || a.some((value, index) => value !== b[index])) {
      throw new CheckpointError(`${label}'s base net 'actor.*' differs from 'network.*' (at '${name}'), as after DPPO annealed ft_denoising_steps; the fine-tuned step count is then not in the file, so this build does not import it`);
    }
  }
}

/** A fine-tuned file's DDIM eta: only EtaFixed at η = 1 runs as this build's stochastic DDIM steps do. */
function checkEta(tensors: ReadonlyMap<string, ForeignTensor>, config: HydraConfig | undefined, ddimSteps: number, label: string): void {
  const logit = tensors.get(ETA_LOGIT);
  if (!logit) return;
  if (ddimSteps === 0) throw new CheckpointError(`${label} holds DDIM's eta but no config says its DDIM steps (use_ddim, ddim_steps); give peer_config=FILE.yaml`);
  const etas = Array.from(toFloat32(logit), (value) => dppoEta(value, config));
  const off = etas.find((eta) => !(Math.abs(eta - 1) <= 1e-6));
  if (off !== undefined) throw new CheckpointError(`${label}'s DDIM eta is ${off.toPrecision(4)}; this build's stochastic DDIM steps take DPPO's η = 1`);
}

/**
 * Reads a DPPO checkpoint (DESIGN.md §17, §18): a pretraining `{epoch, model, ema}` of DiffusionModel (its EMA weights,
 * as DPPO's fine-tuner loads them; the critic starts fresh) or a fine-tuning `{itr, model}` of PPODiffusion (the
 * fine-tuned net `actor_ft`, the frozen base net `actor` as the reference weights, and the critic). Layer sizes come
 * from the tensors, the observation and action sizes from normalization.npz, activations, the chain and the
 * fine-tuning settings from the config. Optimizer entries are skipped.
 */
export function readDppoCheckpoint(files: PeerCheckpointFiles): ImportedDiffusionPolicy {
  const config = files.config ? HydraConfig.parse(files.config.text, files.config.name) : undefined;
  return dppoPolicyOf(peerTopDict(files.checkpoint), readNormalization(files.normalization, files.checkpoint.name), files.checkpoint.name, config, files.normalization?.name ?? 'normalization.npz');
}

/** readDppoCheckpoint on values already read: the unpickled top dict, the normalization stats and the config. */
export function dppoPolicyOf(
  top: PickleDict,
  normalizer: { obs: MinMaxStats; action: MinMaxStats },
  label: string,
  config: HydraConfig | undefined,
  normalizationName: string,
): ImportedDiffusionPolicy {
  refuseUnsupportedDppo(config, label);
  const kind = fileKind(top, label);
  const notes: string[] = [];
  const tensors = peerStateDict(top, kind === 'pretrain' ? 'ema' : 'model', label);
  const root = kind === 'pretrain' ? 'network.' : 'actor_ft.';
  const obsDim = normalizer.obs.min.length;
  const actionDim = normalizer.action.min.length;

  if (!tensors.has(`${root}mlp_mean.layers.0.weight`) && !tensors.has(`${root}mlp_mean.moduleList.0.linear_1.weight`)) {
    throw new CheckpointError(`${label} has no DiffusionMLP under '${root}' (no '${root}mlp_mean'); this build reads DPPO's DiffusionMLP, not its UNet or vision nets`);
  }
  // DiffusionMLP's time embedding: sinusoid (time_dim), Linear to 2·time_dim, Mish, Linear back; the head reads [x | emb(t) | cond].
  const timeDim = peerTensorSize(tensors, `${root}time_embedding.1.weight`, 1, label);
  const velocity = inferPeerMlp(tensors, `${root}mlp_mean`, label);
  const actionSize = velocity.dims[velocity.dims.length - 1];
  const cond = tensors.has(`${root}cond_mlp.moduleList.0.linear_1.weight`) ? inferPeerMlp(tensors, `${root}cond_mlp`, label) : undefined;
  const condInput = cond ? cond.dims[0] : velocity.dims[0] - actionSize - timeDim;
  if (actionSize % actionDim !== 0) {
    throw new CheckpointError(`${label} outputs ${actionSize} action values, which is not a whole chunk of the ${actionDim} actions ${normalizationName} gives`);
  }
  if (condInput % obsDim !== 0 || condInput < obsDim) {
    throw new CheckpointError(`${label} reads ${condInput} observation values, which is not a whole history of the ${obsDim} observations ${normalizationName} gives`);
  }
  const horizon = actionSize / actionDim;
  checkConfigSizes(config, { action_dim: actionDim, obs_dim: obsDim, horizon_steps: horizon, cond_steps: condInput / obsDim }, normalizationName);
  const settings = dppoSettingsFromConfig(config, horizon, label, notes);
  const activations = dppoLayoutFromConfig(config, notes);
  const critic = kind === 'finetune' ? inferPeerMlp(tensors, 'critic.Q1', label) : undefined;
  if (critic && critic.dims[0] !== condInput) {
    throw new CheckpointError(`${label}'s critic reads ${critic.dims[0]} values, not the ${condInput} observation values its policy reads`);
  }
  if (critic && cond) {
    throw new CheckpointError(`${label}'s critic reads the raw observation while its policy reads a cond_mlp embedding; this build's critic reads the policy's observation features`);
  }
  const fresh = dppoCriticFromConfig(config);

  const architecture = resolveFlowPolicyOptions({
    ...DEFAULT_FLOW_POLICY_OPTIONS,
    obsEncoder: 'state',
    obsDim,
    nObsSteps: condInput / obsDim,
    horizon,
    actionDim,
    velocityNet: 'reflow_mlp',
    velocityHidden: velocity.dims.slice(1, -1),
    encoderHidden: cond ? cond.dims.slice(1) : [],
    timeEmbedDim: timeDim,
    shortcut: false,
    valueOn: 'obs',
    valueHidden: critic ? critic.dims.slice(1, -1) : fresh.hidden,
    noiseHead: false,
    reflow: {
      ...activations,
      residual: velocity.residual,
      layerNorm: velocity.layerNorm,
      criticResidual: critic ? critic.residual : fresh.residual,
      criticLayerNorm: critic ? critic.layerNorm : fresh.layerNorm,
      combination: 'add',
    },
    prediction: 'epsilon',
  });
  const shapes = expectedParameterShapes(architecture);
  const weights = new Map<string, WeightEntry>();
  const names = flowMlpNames(root, architecture);
  takePeerTensors(tensors, names, shapes, label, weights);
  const taken = new Set(names.map((name) => name.peer));
  if (kind === 'pretrain') {
    refusePeerLeftovers(tensors, taken, [root], label, DPPO_LAYOUT);
    notes.push(`${label}: DPPO DiffusionModel pretraining checkpoint at epoch ${String(top.get('epoch'))}, its EMA weights (as DPPO's fine-tuner loads them); the critic starts fresh`);
    return { kind: 'diffusion', architecture, weights, withHeads: false, normalizer, stage: 'bc', training: { iteration: peerCount(top.get('epoch')), envSteps: 0 }, settings, notes };
  }
  checkBaseCopies(tensors, label);
  checkEta(tensors, config, settings.ddimSteps, label);
  const critics = criticObsNames(architecture);
  takePeerTensors(tensors, critics, shapes, label, weights);
  const reference = new Map<string, WeightEntry>();
  const base = flowMlpNames('actor.', architecture);
  takePeerTensors(tensors, base, shapes, label, reference);
  for (const name of [...critics, ...base, ...flowMlpNames('network.', architecture)]) taken.add(name.peer);
  taken.add(ETA_LOGIT);
  refusePeerLeftovers(tensors, taken, ['network.', 'actor.', 'actor_ft.', 'critic.', 'eta.'], label, DPPO_LAYOUT);
  const ftSteps = settings.fields.find((field) => field.key === 'dppo.ft_denoising_steps')?.value;
  const chain = settings.ddimSteps > 0 ? `${settings.ddimSteps} DDIM` : `${settings.denoiseSteps} DDPM`;
  notes.push(`${label}: DPPO PPODiffusion fine-tuned at iteration ${String(top.get('itr'))}: its fine-tuned net (actor_ft) for the last ${String(ftSteps)} of ${chain} steps, the frozen base net (actor) for the earlier ones, and its critic`);
  return { kind: 'diffusion', architecture, weights, reference, withHeads: true, normalizer, stage: 'ppo', training: { iteration: peerCount(top.get('itr')), envSteps: 0 }, settings, notes };
}
