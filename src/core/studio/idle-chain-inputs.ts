/**
 * Inputs of the chain view and the action probe when no run exists: a live policy of the
 * selected checkpoint (built once per selection; a fine-tuned diffusion checkpoint's with the
 * frozen base net it stores) and the stacked observation of one env (with its camera images, for
 * image observations) after a reset seeded with `seed + envIndex`. Both are cached, so
 * re-sampling after a noise change costs only the sampling.
 */
import * as tf from '@tensorflow/tfjs';
import { bundleFromCheckpoint } from '../checkpoint/policy-checkpoint';
import type { FamilyCheckpoint } from '../run/family-checkpoint';
import type { RunConfig } from '../config/run-config';
import type { FlowPolicy } from '../policy/flow-policy';
import type { PolicyBundle } from '../policy/policy-bundle';
import { copyPolicy } from '../rl/bc-reference';
import { ObsHistory } from '../rl/obs-history';
import { freshBundle } from '../run/fresh-bundle';
import { runEnvConfig } from '../run/run-env-config';
import { envShapes } from '../run/open-checkpoint';
import type { BatchEnv } from '../envs/batch-env';
import type { VectorEnvConfig } from '../envs/vector-env-config';
import type { DecisionInput } from '../rl/decision-input';
import { noChainError, type ChainPolicy } from './chain-sampler';

/** Opens `numEnvs` envs for one seeded reset (the studio's env workers, or envs in this thread). */
export type ResetEnvOpener = (config: VectorEnvConfig) => Promise<Pick<BatchEnv, 'reset' | 'dispose' | 'images' | 'imageSpec'>>;

/** A seeded reset of every env: observations [numEnvs × obsDim], and for image observations their images and the cameras resolved. */
interface ResetInputs {
  obs: Float32Array;
  images?: Uint8Array;
  cameras?: readonly string[];
}

export class IdleChainInputs {
  constructor(private readonly openEnv: ResetEnvOpener) {}

  private policyEntry?: { key: string; checkpoint?: FamilyCheckpoint; policy: ChainPolicy };
  private resetEntry?: { key: string; inputs: ResetInputs };

  /** The first observations (and images) of a seeded reset for this config's env. */
  private async resetInputs(config: RunConfig): Promise<ResetInputs> {
    const key = JSON.stringify([config.task, config.env, config.seed, config.num_envs]);
    if (this.resetEntry?.key === key) return this.resetEntry.inputs;
    const env = await this.openEnv(runEnvConfig(config, 'train', false));
    try {
      const obs = await env.reset(Array.from({ length: config.num_envs }, (_, envIndex) => config.seed + envIndex));
      const inputs: ResetInputs = env.imageSpec ? { obs, images: env.images!(), cameras: env.imageSpec.cameras } : { obs };
      this.resetEntry = { key, inputs };
      return inputs;
    } finally {
      await env.dispose();
    }
  }

  /** What env `envIndex`'s first decision after the seeded reset sees: its raw stacked observation [nObs·obsDim], and its images. */
  async input(config: RunConfig, envIndex: number): Promise<DecisionInput> {
    const numEnvs = config.num_envs;
    const { obs, images } = await this.resetInputs(config);
    const imageBytes = images ? images.length / numEnvs : 0;
    const history = new ObsHistory(numEnvs, obs.length / numEnvs, config.policy.n_obs_steps, imageBytes);
    history.reset(obs, images);
    const envImages = history.envImages(envIndex);
    return envImages ? { obs: history.envStacked(envIndex), images: envImages } : { obs: history.envStacked(envIndex) };
  }

  /** [nObs·obsDim] raw stacked observation of env `envIndex` right after the seeded reset. */
  async observation(config: RunConfig, envIndex: number): Promise<Float32Array> {
    return (await this.input(config, envIndex)).obs;
  }

  /** The selected checkpoint's policy, or a fresh policy with the run's seed when none is selected. */
  async policy(config: RunConfig, checkpoint: FamilyCheckpoint | undefined): Promise<ChainPolicy> {
    const kind = checkpoint?.kind ?? config.policy.kind;
    if (kind !== 'flow' && kind !== 'diffusion') throw noChainError(kind);
    // Built again after a backend switch: its variables live on the backend they were made on.
    const model = checkpoint ? `selected:${config.task}` : `fresh:${JSON.stringify([config.task, config.seed, config.policy, config.env])}`;
    const key = `${tf.getBackend()}:${model}`;
    if (this.policyEntry && this.policyEntry.key === key && this.policyEntry.checkpoint === checkpoint) return this.policyEntry.policy;
    this.dispose();
    let bundle: PolicyBundle;
    let base: FlowPolicy | undefined;
    if (checkpoint) {
      const decoded = checkpoint as Extract<FamilyCheckpoint, { kind: 'flow' | 'diffusion' }>;
      bundle = bundleFromCheckpoint(decoded).bundle;
      // A fine-tuned diffusion checkpoint stores its base net, which runs the early steps of its rollouts.
      if (decoded.kind === 'diffusion' && decoded.reference) {
        base = copyPolicy(bundle.policy);
        base.setWeights(decoded.reference);
      }
    } else {
      const dims = envShapes(config);
      const reset = await this.resetInputs(config);
      bundle = freshBundle(config, reset.obs, dims.obsFrameSize, dims.actionDim, reset.cameras);
    }
    const policy: ChainPolicy = kind === 'diffusion' ? { kind, bundle, ...(base ? { base } : {}) } : { kind, bundle };
    this.policyEntry = { key, checkpoint, policy };
    return policy;
  }

  dispose(): void {
    const entry = this.policyEntry?.policy;
    entry?.bundle.policy.dispose();
    if (entry?.kind === 'diffusion') entry.base?.dispose();
    this.policyEntry = undefined;
  }
}
