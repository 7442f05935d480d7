/**
 * Inputs of the chain view and the action probe when no run exists: a live policy of the
 * selected checkpoint (built once per selection) and the stacked observation of one env
 * after a reset seeded with `seed + envIndex`. Both are cached, so re-sampling after a
 * noise change costs only the sampling.
 */
import * as tf from '@tensorflow/tfjs';
import { bundleFromCheckpoint } from '../checkpoint/policy-checkpoint';
import type { FamilyCheckpoint } from '../run/family-checkpoint';
import { TrainingError } from '../errors';
import type { RunConfig } from '../config/run-config';
import type { PolicyBundle } from '../policy/policy-bundle';
import { ObsHistory } from '../rl/obs-history';
import { freshBundle } from '../run/fresh-bundle';
import { runEnvConfig } from '../run/run-env-config';
import { envShapes } from '../run/open-checkpoint';
import type { BatchEnv } from '../envs/batch-env';
import type { VectorEnvConfig } from '../envs/vector-env-config';

/** Opens `numEnvs` envs for one seeded reset (the studio's env workers, or envs in this thread). */
export type ResetEnvOpener = (config: VectorEnvConfig) => Promise<Pick<BatchEnv, 'reset' | 'dispose'>>;

export class IdleChainInputs {
  constructor(private readonly openEnv: ResetEnvOpener) {}

  private bundleEntry?: { key: string; checkpoint?: FamilyCheckpoint; bundle: PolicyBundle };
  private obsEntry?: { key: string; obs: Float32Array };

  /** [numEnvs × obsDim] first observations of a seeded reset for this config's env. */
  private async resetObs(config: RunConfig): Promise<Float32Array> {
    const key = JSON.stringify([config.task, config.env, config.seed, config.num_envs]);
    if (this.obsEntry?.key === key) return this.obsEntry.obs;
    const env = await this.openEnv(runEnvConfig(config, 'train', false));
    try {
      const obs = await env.reset(Array.from({ length: config.num_envs }, (_, envIndex) => config.seed + envIndex));
      this.obsEntry = { key, obs };
      return obs;
    } finally {
      await env.dispose();
    }
  }

  /** [nObs·obsDim] raw stacked observation of env `envIndex` right after the seeded reset. */
  async observation(config: RunConfig, envIndex: number): Promise<Float32Array> {
    const numEnvs = config.num_envs;
    const obs = await this.resetObs(config);
    const history = new ObsHistory(numEnvs, obs.length / numEnvs, config.policy.n_obs_steps);
    history.reset(obs);
    const size = history.stackedDim;
    return history.stacked().slice(envIndex * size, (envIndex + 1) * size);
  }

  /** The selected checkpoint's policy, or a fresh policy with the run's seed when none is selected. */
  async bundle(config: RunConfig, checkpoint: FamilyCheckpoint | undefined): Promise<PolicyBundle> {
    const kind = checkpoint?.kind ?? config.policy.kind;
    if (kind !== 'flow') throw new TrainingError(`a ${kind} policy has no denoising chain to sample or inspect`);
    // Built again after a backend switch: its variables live on the backend they were made on.
    const model = checkpoint ? `selected:${config.task}` : `fresh:${JSON.stringify([config.task, config.seed, config.policy, config.env])}`;
    const key = `${tf.getBackend()}:${model}`;
    if (this.bundleEntry && this.bundleEntry.key === key && this.bundleEntry.checkpoint === checkpoint) return this.bundleEntry.bundle;
    this.dispose();
    let bundle: PolicyBundle;
    if (checkpoint) {
      bundle = bundleFromCheckpoint(checkpoint as Extract<FamilyCheckpoint, { kind: 'flow' }>).bundle;
    } else {
      const dims = envShapes(config);
      bundle = freshBundle(config, await this.resetObs(config), dims.obsFrameSize, dims.actionDim);
    }
    this.bundleEntry = { key, checkpoint, bundle };
    return bundle;
  }

  dispose(): void {
    this.bundleEntry?.bundle.policy.dispose();
    this.bundleEntry = undefined;
  }
}
