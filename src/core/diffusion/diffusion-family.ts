/**
 * The diffusion policy family (DESIGN.md §16, §17): DPPO's ε-prediction DDPM (or DDIM) on our nets, fine-tuned as DPPO
 * fine-tunes it. It acts through the shared chain rollout (collectDecisions) with its own decider, trains on
 * dppoObjective, evaluates the deterministic (mean) chain and keeps the frozen base net, which runs the early denoising
 * steps and teaches the optional BC term, as the checkpoint's reference weights.
 */
import { bundleContents, bundleFromCheckpoint } from '../checkpoint/policy-checkpoint';
import type { FlowtuneMetadata } from '../checkpoint/metadata';
import type { RunConfig } from '../config/run-config';
import type { BatchEnv } from '../envs/batch-env';
import { CheckpointError, ConfigError, TrainingError } from '../errors';
import { FlowPolicy, type WeightEntry } from '../policy/flow-policy';
import { obsFrameSize } from '../policy/options';
import type { PolicyBundle } from '../policy/policy-bundle';
import { createRng, type Rng } from '../random';
import { copyPolicy } from '../rl/bc-reference';
import { collectDecisions } from '../rl/collect-rollout';
import { computeAdvantages } from '../rl/compute-advantages';
import { DecisionRewardScale, type DecisionRewardScaleState } from '../rl/decision-reward-scale';
import type { EvalActor } from '../rl/evaluate';
import { iterationRng } from '../rl/ppo-iteration';
import { probeInputs } from '../rl/probe-inputs';
import type { FamilyCheckpoint } from '../run/family-checkpoint';
import { learnerOnBundle } from '../run/fresh-bundle';
import type { CollectedRollout, CollectInputs, FamilyLearner, FamilySnapshot, LoadedPolicy, PolicyFamily, PolicyIo } from '../run/policy-family';
import type { RunResumeState } from '../run/run-state';
import { deterministicDiffusion, diffusionActor, type DiffusionBase } from './diffusion-actor';
import { diffusionDecider } from './diffusion-decider';
import { checkFineTunedSteps, diffusionSettings } from './diffusion-settings';
import { dppoObjective } from './dppo-objective';

/** A diffusion policy's ONNX graph (its DDPM/DDIM chain) has no image input yet; the flow family's exporter has one. */
export const DIFFUSION_IMAGE_ONNX_REFUSAL = 'ONNX export of a diffusion policy on camera images is not supported yet: its chain graph takes no image input; export its tfjs weights (format=tfjs), or export a flow policy, whose graph takes the images';

/** K' of the run that wrote a checkpoint (its stored dppo.ft_denoising_steps), else the config's. */
function storedFineTunedSteps(metadata: FlowtuneMetadata, config: RunConfig): number {
  const stored = (metadata.config as { dppo?: { ft_denoising_steps?: unknown } } | undefined)?.dppo?.ft_denoising_steps;
  return typeof stored === 'number' && Number.isSafeInteger(stored) && stored >= 1 ? stored : config.dppo.ft_denoising_steps;
}

/** A diffusion policy outside a run: its deterministic chain evaluates and exports. */
export class LoadedDiffusionPolicy implements LoadedPolicy {
  readonly kind = 'diffusion' as const;

  /** `stored`: a fine-tuned checkpoint's base net and K', which its deterministic chain runs as DPPO runs it. */
  constructor(readonly bundle: PolicyBundle, private readonly stored?: DiffusionBase) {}

  /** The base net and K' the deterministic chain runs with under `config`; none for a BC policy (its own net runs every step). */
  protected baseFor(_config: RunConfig): DiffusionBase | undefined {
    return this.stored;
  }

  /** The base net and K' an export of `metadata` runs with. */
  protected exportBase(_metadata: FlowtuneMetadata): DiffusionBase | undefined {
    return this.stored;
  }

  get io(): PolicyIo {
    const { nObsSteps, horizon, actionDim } = this.bundle.policy.options;
    return { nObsSteps, obsFrameSize: obsFrameSize(this.bundle.policy.options), actionDim, x0Shape: [horizon, actionDim] };
  }

  evalActor(config: RunConfig): EvalActor {
    return diffusionActor(this.bundle, config, this.baseFor(config));
  }

  async probe(config: RunConfig, seed: number): Promise<Float32Array> {
    const { normalizedObs, images } = probeInputs(this.bundle.policy.options, createRng(seed));
    return (await deterministicDiffusion(this.bundle, config, normalizedObs, createRng(seed + 1), this.baseFor(config), images)).actions;
  }

  async exportOnnx(metadata: FlowtuneMetadata): Promise<{ bytes: Uint8Array; description: string }> {
    if (this.bundle.policy.options.image) throw new CheckpointError(DIFFUSION_IMAGE_ONNX_REFUSAL);
    const { exportDiffusionOnnx } = await import('../checkpoint/onnx/export-diffusion-onnx');
    const bytes = await exportDiffusionOnnx(this.bundle, metadata, this.exportBase(metadata));
    const { nObsSteps, horizon, actionDim } = this.bundle.policy.options;
    const policy = (metadata.config as { policy?: { ddim_steps?: number; n_action_steps?: number } } | undefined)?.policy;
    const ddim = Number(policy?.ddim_steps ?? 0);
    const steps = Number((metadata.architecture as { denoise_steps?: number }).denoise_steps);
    return {
      bytes,
      description: `obs [batch, ${nObsSteps}, ${obsFrameSize(this.bundle.policy.options)}] and x0 (x_T) [batch, ${horizon}, ${actionDim}] → actions [batch, ${Number(policy?.n_action_steps ?? horizon)}, ${actionDim}] for ${metadata.task}, ${ddim > 0 ? `${ddim} DDIM steps (η = 0)` : `the ${steps}-step DDPM mean chain`}`,
    };
  }

  dispose(): void {
    this.stored?.net.dispose();
    this.bundle.policy.dispose();
  }
}

/** A diffusion policy inside a run. */
export class DiffusionLearner extends LoadedDiffusionPolicy implements FamilyLearner {
  /** The frozen base net: DPPO's `actor`, the policy the run started from. */
  readonly base: FlowPolicy;
  /** DPPO's running reward scaling (ppo.reward_norm). */
  private readonly rewardScale: DecisionRewardScale;

  constructor(bundle: PolicyBundle, private readonly runConfig: RunConfig) {
    super(bundle);
    this.base = copyPolicy(bundle.policy);
    this.rewardScale = new DecisionRewardScale(runConfig);
  }

  namedVariables() {
    return this.bundle.policy.namedVariables();
  }

  checkConfig(config: RunConfig): void {
    diffusionSettings(config);
    checkFineTunedSteps(config);
    if (config.policy.freeze_encoder === 'true') {
      throw new ConfigError('policy.freeze_encoder', 'policy.freeze_encoder=true is not supported for diffusion policies: DPPO fine-tunes the whole net; use auto or false');
    }
  }

  resetsEachIteration(config: RunConfig): boolean {
    return config.advantages.type === 'grpo';
  }

  async collect(inputs: CollectInputs, rng: Rng): Promise<CollectedRollout> {
    const { env, config, criticOnly } = inputs;
    const settings = diffusionSettings(config);
    const decider = diffusionDecider(this.bundle.policy, this.base, settings, inputs.history.stackedDim, rng);
    const { buffer, stats } = await collectDecisions(this.bundle, env, { history: inputs.history }, config, decider, inputs.phases);
    this.rewardScale.scaleRollout(buffer);
    // DPPO normalizes advantages per minibatch (in its loss), not over the rollout.
    const { advantages, returns, mask, metrics } = computeAdvantages(buffer, { ...config.advantages, normalize: false });
    const objective = dppoObjective({
      policy: this.bundle.policy, base: this.base, buffer, advantages, returns, mask, config, settings, criticOnly,
      bcRng: iterationRng(config, inputs.iteration, 3), shiftRng: iterationRng(config, inputs.iteration, 4),
    });
    return {
      objective, values: buffer.values, returns, valueMask: buffer.mask, episodes: stats.episodes, envSteps: stats.envSteps,
      meanNoiseStd: stats.meanNoiseStd, rolloutSeconds: stats.rolloutSeconds, metrics,
    };
  }

  async contents(snapshot: FamilySnapshot) {
    return bundleContents({
      bundle: this.bundle, task: snapshot.config.task, stage: snapshot.stage, config: snapshot.config, progress: snapshot.progress,
      evalSummary: snapshot.evalSummary, resume: snapshot.resume, reference: await this.base.getWeights(),
    });
  }

  captureState(): DecisionRewardScaleState {
    return this.rewardScale.capture();
  }

  writeResume(state: RunResumeState, captured?: unknown): void {
    this.rewardScale.write(state, captured as DecisionRewardScaleState | undefined);
  }

  readResume(state: RunResumeState | undefined): void {
    this.rewardScale.read(state);
  }

  /** The run's base net and K' (before any update the base is the policy itself, so the chain is its own). */
  protected override baseFor(config: RunConfig): DiffusionBase {
    return { net: this.base, ftSteps: config.dppo.ft_denoising_steps };
  }

  protected override exportBase(metadata: FlowtuneMetadata): DiffusionBase {
    return { net: this.base, ftSteps: storedFineTunedSteps(metadata, this.runConfig) };
  }

  /** Puts back the base net a checkpoint stored; without one the base stays the weights the run opened with. */
  restoreBase(weights: ReadonlyMap<string, WeightEntry> | undefined): void {
    if (weights) this.base.setWeights(weights);
  }

  load(checkpoint: FamilyCheckpoint): string | undefined {
    if (checkpoint.kind !== 'diffusion') throw new TrainingError(`a diffusion run cannot load a ${checkpoint.kind} checkpoint`);
    this.bundle.policy.setWeights(checkpoint.tensors);
    this.restoreBase(checkpoint.reference);
    return undefined;
  }

  override dispose(): void {
    this.base.dispose();
    super.dispose();
  }
}

export const DIFFUSION_FAMILY: PolicyFamily = {
  kind: 'diffusion',
  async learner(config: RunConfig, env: BatchEnv, checkpoint: FamilyCheckpoint | undefined) {
    if (checkpoint && checkpoint.kind !== 'diffusion') throw new TrainingError(`a diffusion run cannot start from a ${checkpoint.kind} checkpoint`);
    const learner = await learnerOnBundle(config, env, checkpoint, (bundle) => new DiffusionLearner(bundle, config));
    // A fine-tuned checkpoint keeps its base net; a BC checkpoint's weights are the base.
    if (checkpoint?.reference) learner.restoreBase(checkpoint.reference);
    return { learner, notes: [] };
  },
  loaded(checkpoint: FamilyCheckpoint, config: RunConfig) {
    if (checkpoint.kind !== 'diffusion') throw new TrainingError(`a ${checkpoint.kind} checkpoint is not a diffusion policy`);
    const { bundle } = bundleFromCheckpoint(checkpoint, config.policy);
    if (!checkpoint.reference) return new LoadedDiffusionPolicy(bundle);
    const net = new FlowPolicy(bundle.policy.options, checkpoint.reference);
    return new LoadedDiffusionPolicy(bundle, { net, ftSteps: storedFineTunedSteps(checkpoint.metadata, config) });
  },
};
