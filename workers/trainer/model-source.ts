/**
 * Checkpoints as the trainer worker sees them: validated once when chosen (the
 * live run is never touched), rebuilt into a fresh bundle for each run.
 */
import type { RunConfig, TaskName } from '../../src/core/config/run-config';
import { actionDim as actionDimOf } from '../../src/core/envs/controller';
import { observationSpec } from '../../src/core/envs/observation';
import { getTask } from '../../src/core/envs/registry';
import type { FlowtuneMetadata } from '../../src/core/checkpoint/metadata';
import { loadBundle, loadBundleFromTfjs, type LoadedBundle } from '../../src/core/checkpoint/policy-checkpoint';
import { CheckpointError } from '../../src/core/errors';
import { FlowPolicy } from '../../src/core/policy/flow-policy';
import { MinMaxNormalizer } from '../../src/core/policy/normalizer';
import type { PolicyBundle } from '../../src/core/rl/policy-bundle';
import { policyOptionsFromConfig } from '../../src/core/rl/policy-setup';
import type { CheckpointFiles, CheckpointInfo } from '../../src/protocol/trainer-api';

/** Per-frame obs size and action size of a task's env under this config. */
export function envDims(config: RunConfig): { obsDim: number; actionDim: number } {
  return {
    obsDim: observationSpec(getTask(config.task), config.env.obs_type, config.env.num_points).dim,
    actionDim: actionDimOf(config.env.control_mode),
  };
}

export function loadFiles(files: CheckpointFiles, task: TaskName, config: RunConfig): LoadedBundle {
  const expected = envDims({ ...config, task });
  const options = { expectedTask: task, expected, detachCriticInput: config.policy.detach_critic_input };
  return files.kind === 'flowtune' ? loadBundle(files.bytes, options) : loadBundleFromTfjs(files.modelJson, files.weights, options);
}

function describeArchitecture(metadata: FlowtuneMetadata): string {
  const arch = metadata.architecture as Record<string, unknown>;
  const hidden = Array.isArray(arch.velocityHidden) ? `[${(arch.velocityHidden as number[]).join(', ')}]` : '?';
  return `${arch.obsEncoder ?? 'state'} · mlp ${hidden} · H ${arch.horizon} · K ${arch.denoise_steps ?? '?'} · obs ${arch.obsDim} · act ${arch.actionDim}`;
}

export function checkpointInfo(files: CheckpointFiles, loaded: LoadedBundle): CheckpointInfo {
  const { metadata } = loaded;
  return {
    source: files.name,
    task: metadata.task,
    stage: metadata.stage,
    step: metadata.training.step,
    iteration: metadata.training.iteration,
    envSteps: metadata.training.env_steps,
    architecture: describeArchitecture(metadata),
    eval: { ...metadata.eval },
    hasOptimizerState: loaded.progress !== undefined,
    format: files.kind,
  };
}

export function disposeBundle(bundle: PolicyBundle): void {
  bundle.policy.dispose();
}

/**
 * A freshly initialized policy for runs without a checkpoint. Observation ranges come
 * from the first reset, widened by ±1 so early states stay near [-1, 1]; actions span [-1, 1].
 */
export function freshBundle(config: RunConfig, firstObs: Float32Array, obsDim: number, actionDim: number): PolicyBundle {
  const fitted = MinMaxNormalizer.fit(firstObs, obsDim, 'obs_normalizer').toJSON();
  const obsNormalizer = new MinMaxNormalizer({ min: fitted.min.map((value) => value - 1), max: fitted.max.map((value) => value + 1) }, 'obs_normalizer');
  const actionNormalizer = new MinMaxNormalizer({ min: new Array(actionDim).fill(-1), max: new Array(actionDim).fill(1) }, 'action_normalizer');
  const policy = new FlowPolicy(policyOptionsFromConfig(config, obsDim, actionDim), config.seed);
  return { policy, obsNormalizer, actionNormalizer };
}

/** Fetches a shipped checkpoint; undefined when the server has none (a 404 or the HTML fallback page). */
export async function fetchShipped(task: TaskName): Promise<{ name: string; bytes: Uint8Array } | undefined> {
  const path = `checkpoints/${task}-bc.flowtune`;
  const url = new URL(`/${path}`, self.location.origin);
  const response = await fetch(url);
  if (!response.ok || (response.headers.get('content-type') ?? '').includes('text/html')) return undefined;
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes.length === 0) throw new CheckpointError(`shipped checkpoint ${path} is empty`);
  return { name: path, bytes };
}
