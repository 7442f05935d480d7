/**
 * openRun for the Gaussian PPO baseline (policy.kind=gaussian, DESIGN.md §14 "Gaussian PPO"):
 * a fresh policy sized to the task, or one from a Gaussian checkpoint, which resumes its run exactly.
 */
import type { RunConfig } from '../config/run-config';
import type { BatchEnv } from '../envs/batch-env';
import { GaussianPolicy } from '../gaussian/gaussian-policy';
import type { GaussianBundle } from '../gaussian/gaussian-bundle';
import type { GaussianCheckpoint } from '../gaussian/gaussian-checkpoint';
import { ObservationScaler } from '../gaussian/observation-scaler';
import { RunningMeanStd } from '../gaussian/running-mean-std';
import { ConfigError, CheckpointError } from '../errors';
import { GaussianRun } from './gaussian-run';
import { disposeRunParts, openRunEnvs } from './open-run';
import { decodeResumeState } from './resume-codec';
import type { RunPorts } from './run-ports';

export interface OpenedGaussianRun {
  run: GaussianRun;
  evalEnv?: BatchEnv;
  notes: string[];
  close(): Promise<void>;
}

/** The live policy of a Gaussian checkpoint, or a fresh one for `config` and the env's sizes. */
export function gaussianBundle(config: RunConfig, obsDim: number, actionDim: number, checkpoint?: GaussianCheckpoint): GaussianBundle {
  if (!checkpoint) {
    const policy = new GaussianPolicy({ kind: 'gaussian', obsDim, actionDim, hidden: config.policy.gaussian_hidden }, config.seed, config.policy.init_log_std);
    return { kind: 'gaussian', policy, obsScaler: new ObservationScaler(new RunningMeanStd(obsDim), config.ppo.norm_clip, config.policy.running_obs_norm) };
  }
  const hidden = checkpoint.options.hidden;
  if (hidden.join(',') !== config.policy.gaussian_hidden.join(',')) {
    throw new ConfigError('policy.gaussian_hidden', `policy.gaussian_hidden=${config.policy.gaussian_hidden.join(',')} contradicts the checkpoint, whose policy has hidden widths ${hidden.join(',')}`);
  }
  let policy: GaussianPolicy;
  try {
    policy = new GaussianPolicy(checkpoint.options, checkpoint.tensors);
  } catch (error) {
    throw new CheckpointError((error as Error).message);
  }
  return { kind: 'gaussian', policy, obsScaler: new ObservationScaler(checkpoint.obsStats, checkpoint.obsClip, checkpoint.obsNormEnabled) };
}

export async function openGaussianRun(config: RunConfig, checkpoint: GaussianCheckpoint | undefined, ports: RunPorts): Promise<OpenedGaussianRun> {
  const resume = checkpoint?.metadata.resume ? decodeResumeState(checkpoint.metadata.resume) : undefined;
  const { env, evalEnv } = await openRunEnvs(config, ports);
  let bundle: GaussianBundle | undefined;
  let run: GaussianRun | undefined;
  try {
    bundle = gaussianBundle(config, env.obsDim, env.actionDim, checkpoint);
    run = new GaussianRun({ bundle, env, evalEnv, config, clock: ports.clock, beforeMinibatch: ports.pauseGate ? () => ports.pauseGate!('minibatch') : undefined });
    const notes: string[] = [];
    if (checkpoint?.progress) {
      const note = await run.restore(checkpoint.progress, resume);
      if (note) notes.push(note);
    }
    const parts = { run, policy: bundle.policy, env, evalEnv };
    return { run, evalEnv, notes, close: () => disposeRunParts(parts) };
  } catch (error) {
    await disposeRunParts({ run, policy: bundle?.policy, env, evalEnv });
    throw error;
  }
}
