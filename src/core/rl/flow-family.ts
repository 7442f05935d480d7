/**
 * The flow policy family (DESIGN.md §3, §4, §16): velocity nets with K Euler steps, chain PPO.
 * It acts through collectRollout, trains on flowObjective, evaluates the all-ODE chain, and keeps
 * the BC regularizer's frozen reference (ppo.bc_coef > 0) as part of its checkpoint.
 */
import { bundleFromCheckpoint, bundleContents } from '../checkpoint/policy-checkpoint';
import { noiseAt } from '../config/noise-at';
import type { RunConfig } from '../config/run-config';
import type { BatchEnv } from '../envs/batch-env';
import { ConfigError, TrainingError } from '../errors';
import type { PolicyBundle } from '../policy/policy-bundle';
import type { FlowPolicy, WeightEntry } from '../policy/flow-policy';
import { createRng, type Rng } from '../random';
import type { FamilyCheckpoint } from '../run/family-checkpoint';
import { learnerOnBundle } from '../run/fresh-bundle';
import type { CollectedRollout, CollectInputs, FamilyLearner, FamilySnapshot, LoadedPolicy, PolicyFamily, PolicyIo } from '../run/policy-family';
import type { FlowtuneMetadata } from '../checkpoint/metadata';
import { exportPolicyOnnx } from '../checkpoint/onnx/export-onnx';
import { onnxPolicySpec } from '../checkpoint/onnx/export-spec';
import { obsFrameSize } from '../policy/options';
import { copyPolicy } from './bc-reference';
import { collectRollout } from './collect-rollout';
import { DecisionRewardScale, type DecisionRewardScaleState } from './decision-reward-scale';
import type { RunResumeState } from '../run/run-state';
import { computeAdvantages } from './compute-advantages';
import { bundleActor, type EvalActor } from './evaluate';
import { logProbSliceFromConfig, samplerOptionsAt } from './policy-setup';
import { sampleForObs } from './policy-bundle';
import { probeInputs } from './probe-inputs';
import { iterationRng } from './ppo-iteration';
import { flowObjective } from './ppo-update';

/** A flow policy: the all-ODE chain evaluates and exports; it samples no single-step demos. */
export class LoadedFlowPolicy implements LoadedPolicy {
  readonly kind = 'flow' as const;

  constructor(readonly bundle: PolicyBundle) {}

  get io(): PolicyIo {
    const { nObsSteps, horizon, actionDim, image } = this.bundle.policy.options;
    return {
      nObsSteps, obsFrameSize: obsFrameSize(this.bundle.policy.options), actionDim, x0Shape: [horizon, actionDim],
      ...(image ? { imageShape: [image.cameras.length, image.size, image.size, image.channels] as [number, number, number, number] } : {}),
    };
  }

  evalActor(config: RunConfig): EvalActor {
    return bundleActor(this.bundle, config);
  }

  /**
   * [H × A] normalized actions of one all-ODE chain (DESIGN.md §3 "Eval") from seeded observations in [-1, 1] (and seeded
   * pixels, for an image policy) and a seeded x_0.
   */
  async probe(config: RunConfig, seed: number): Promise<Float32Array> {
    const { normalizedObs, images } = probeInputs(this.bundle.policy.options, createRng(seed));
    return (await sampleForObs(this.bundle, normalizedObs, samplerOptionsAt(config, 0, 'eval'), createRng(seed + 1), images)).actions;
  }

  async exportOnnx(metadata: FlowtuneMetadata): Promise<{ bytes: Uint8Array; description: string }> {
    const spec = onnxPolicySpec(this.bundle, metadata);
    const bytes = await exportPolicyOnnx(this.bundle, metadata);
    const images = spec.image ? `, images uint8 [batch, ${spec.image.cameras.length}, ${spec.image.size}, ${spec.image.size}, ${spec.image.channels}]` : '';
    return {
      bytes,
      description: `obs [batch, ${spec.nObsSteps}, ${spec.obsFrameSize}]${images} and x0 [batch, ${spec.horizon}, ${spec.actionDim}] → actions [batch, ${spec.nActionSteps}, ${spec.actionDim}] for ${spec.task} (${spec.controlMode}), ${spec.denoiseSteps} Euler steps`,
    };
  }

  dispose(): void {
    this.bundle.policy.dispose();
  }
}

/** A flow policy inside a run. */
export class FlowLearner extends LoadedFlowPolicy implements FamilyLearner {
  /** The BC regularizer's frozen reference (ppo.bc_coef > 0): the policy the run started from. */
  private readonly reference?: FlowPolicy;
  /** Running reward scaling (ppo.reward_norm), as ReinFlow's `reward_scale_running`. */
  private readonly rewardScale: DecisionRewardScale;

  constructor(bundle: PolicyBundle, config: RunConfig) {
    super(bundle);
    if (config.ppo.bc_coef > 0) this.reference = copyPolicy(bundle.policy);
    this.rewardScale = new DecisionRewardScale(config);
  }

  namedVariables() {
    return this.bundle.policy.namedVariables();
  }

  checkConfig(config: RunConfig): void {
    if (config.noise.method === 'ode') {
      throw new ConfigError('noise.method', "noise.method 'ode' has no exploration noise, so PPO has no log-probs to train; use sde, cps or noise");
    }
  }

  resetsEachIteration(config: RunConfig): boolean {
    return config.advantages.type === 'grpo';
  }

  async collect(inputs: CollectInputs, rng: Rng): Promise<CollectedRollout> {
    const { env, config, envStepsBefore, criticOnly } = inputs;
    const sampler = samplerOptionsAt(config, envStepsBefore, 'train');
    const slice = logProbSliceFromConfig(config, env.actionDim);
    const { buffer, stats } = await collectRollout(this.bundle, env, { history: inputs.history }, config, sampler, slice, rng, inputs.phases);
    this.rewardScale.scaleRollout(buffer);
    const { advantages, returns, mask, metrics } = computeAdvantages(buffer, config.advantages);
    const objective = flowObjective({
      policy: this.bundle.policy, buffer, advantages, returns, mask, sampler, slice, config, criticOnly,
      bc: this.reference && { reference: this.reference, rng: iterationRng(config, inputs.iteration, 3) },
      shiftRng: iterationRng(config, inputs.iteration, 4),
    });
    return {
      objective, values: buffer.values, returns, valueMask: buffer.mask, episodes: stats.episodes, envSteps: stats.envSteps,
      meanNoiseStd: stats.meanNoiseStd, noiseLevel: noiseAt(config, envStepsBefore).level, rolloutSeconds: stats.rolloutSeconds, metrics,
    };
  }

  async contents(snapshot: FamilySnapshot) {
    return bundleContents({
      bundle: this.bundle, task: snapshot.config.task, stage: snapshot.stage, config: snapshot.config, progress: snapshot.progress,
      evalSummary: snapshot.evalSummary, resume: snapshot.resume, reference: this.reference ? await this.reference.getWeights() : undefined,
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

  /**
   * Puts back the BC reference a resumed run's checkpoint stored, so it regularizes toward the
   * policy the run started from. Without one (the run was saved with ppo.bc_coef=0) the reference
   * stays the weights the run opened with, and the sentence returned says so.
   */
  restoreReference(weights: ReadonlyMap<string, WeightEntry> | undefined): string | undefined {
    if (!this.reference) return undefined;
    if (!weights) return 'the checkpoint holds no BC reference policy, so ppo.bc_coef regularizes toward the weights it resumes from';
    this.reference.setWeights(weights);
    return undefined;
  }

  load(checkpoint: FamilyCheckpoint): string | undefined {
    if (checkpoint.kind !== 'flow') throw new TrainingError(`a flow run cannot load a ${checkpoint.kind} checkpoint`);
    this.bundle.policy.setWeights(checkpoint.tensors);
    return this.restoreReference(checkpoint.reference);
  }

  override dispose(): void {
    this.reference?.dispose();
    super.dispose();
  }
}

export const FLOW_FAMILY: PolicyFamily = {
  kind: 'flow',
  async learner(config: RunConfig, env: BatchEnv, checkpoint: FamilyCheckpoint | undefined) {
    if (checkpoint && checkpoint.kind !== 'flow') throw new TrainingError(`a flow run cannot start from a ${checkpoint.kind} checkpoint`);
    const learner = await learnerOnBundle(config, env, checkpoint, (bundle) => new FlowLearner(bundle, config));
    const notes: string[] = [];
    if (checkpoint?.progress) {
      const note = learner.restoreReference(checkpoint.reference);
      if (note) notes.push(note);
    }
    return { learner, notes };
  },
  loaded(checkpoint: FamilyCheckpoint, config: RunConfig) {
    if (checkpoint.kind !== 'flow') throw new TrainingError(`a ${checkpoint.kind} checkpoint is not a flow policy`);
    return new LoadedFlowPolicy(bundleFromCheckpoint(checkpoint, config.policy).bundle);
  },
};
