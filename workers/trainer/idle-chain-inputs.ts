/**
 * Inputs of the chain view when no run exists: the selected checkpoint's bundle and the
 * stacked observation of one env after a reset seeded with `seed + envIndex`. Both are
 * cached, so re-sampling after a noise change costs only the sampling.
 */
import type { RunConfig } from '../../src/core/config/run-config';
import type { PolicyBundle } from '../../src/core/rl/policy-bundle';
import { ObsHistory } from '../../src/core/rl/obs-history';
import type { CheckpointFiles } from '../../src/protocol/trainer-api';
import { disposeBundle, envDims, freshBundle, loadFiles } from './model-source';
import { RestartableEnv } from './restartable-env';

export class IdleChainInputs {
  private bundleEntry?: { key: string; files?: CheckpointFiles; bundle: PolicyBundle };
  private obsEntry?: { key: string; obs: Float32Array };

  /** [numEnvs × obsDim] first observations of a seeded reset for this config's env. */
  private async resetObs(config: RunConfig, numEnvs: number): Promise<Float32Array> {
    const key = JSON.stringify([config.task, config.env, config.seed, numEnvs]);
    if (this.obsEntry?.key === key) return this.obsEntry.obs;
    const env = await RestartableEnv.create({
      task: config.task, obsMode: config.env.obs_type, controlMode: config.env.control_mode, rewardMode: config.env.reward,
      numPoints: config.env.num_points, numEnvs, recordEpisodes: false,
    }, 1);
    try {
      const obs = await env.reset(Array.from({ length: numEnvs }, (_, envIndex) => config.seed + envIndex));
      this.obsEntry = { key, obs };
      return obs;
    } finally {
      await env.dispose();
    }
  }

  /** [nObs·obsDim] raw stacked observation of env `envIndex` right after the seeded reset. */
  async observation(config: RunConfig, envIndex: number): Promise<Float32Array> {
    const numEnvs = config.num_envs;
    const obs = await this.resetObs(config, numEnvs);
    const history = new ObsHistory(numEnvs, obs.length / numEnvs, config.policy.n_obs_steps);
    history.reset(obs);
    const size = history.stackedDim;
    return history.stacked().slice(envIndex * size, (envIndex + 1) * size);
  }

  /** The selected checkpoint's bundle, or a fresh policy with the run's seed when none is selected. */
  async bundle(config: RunConfig, files: CheckpointFiles | undefined): Promise<PolicyBundle> {
    const key = files ? `selected:${config.task}` : `fresh:${JSON.stringify([config.task, config.seed, config.policy, config.env])}`;
    if (this.bundleEntry && this.bundleEntry.key === key && this.bundleEntry.files === files) return this.bundleEntry.bundle;
    this.dispose();
    let bundle: PolicyBundle;
    if (files) {
      bundle = loadFiles(files, config.task, config).bundle;
    } else {
      const dims = envDims(config);
      bundle = freshBundle(config, await this.resetObs(config, config.num_envs), dims.obsDim, dims.actionDim);
    }
    this.bundleEntry = { key, files, bundle };
    return bundle;
  }

  dispose(): void {
    if (this.bundleEntry) disposeBundle(this.bundleEntry.bundle);
    this.bundleEntry = undefined;
  }
}
