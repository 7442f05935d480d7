/**
 * Turns a run config plus, optionally, a decoded checkpoint into a live Run with its envs
 * (DESIGN.md §2). A checkpoint written during a run resumes it exactly: counters,
 * optimizer moments, metric history, env and RNG states, and the BC reference policy.
 */
import { bundleFromCheckpoint } from '../checkpoint/policy-checkpoint';
import { type PolicyCheckpoint } from '../checkpoint/checkpoint-open';
import type { RunConfig } from '../config/run-config';
import type { BatchEnv } from '../envs/batch-env';
import type { PolicyBundle } from '../policy/policy-bundle';
import { freshBundle, warmupObservations } from './fresh-bundle';
import { gatedEnv } from './gated-env';
import { decodeResumeState } from './resume-codec';
import { runEnvConfig } from './run-env-config';
import type { RunPorts } from './run-ports';
import { Run } from './run';

export interface OpenedRun {
  run: Run;
  /** The evaluation envs, when the config evaluates. */
  evalEnv?: BatchEnv;
  /** Sentences a host shows once, e.g. why a resume is not exact. */
  notes: string[];
  /** Disposes the run, its policy and its envs. */
  close(): Promise<void>;
}

/**
 * A run's training envs (behind the host's pause gate) and, when the config evaluates, its eval envs.
 * Should opening the eval envs fail, the training envs are disposed first.
 */
export async function openRunEnvs(config: RunConfig, ports: RunPorts): Promise<{ env: BatchEnv; evalEnv?: BatchEnv }> {
  const opened = await ports.openEnv(runEnvConfig(config, 'train', ports.recordEpisodes ?? false), 'train');
  const gate = ports.pauseGate;
  const env = gate ? gatedEnv(opened, () => gate('decision')) : opened;
  if (!(config.eval_episodes > 0 && config.eval.every > 0)) return { env };
  try {
    return { env, evalEnv: await ports.openEnv(runEnvConfig(config, 'eval', ports.recordEpisodes ?? false), 'eval') };
  } catch (error) {
    await env.dispose();
    throw error;
  }
}

/** What an opener built, disposed in reverse order: the run, its policy, then its envs. */
export async function disposeRunParts(parts: { run?: { dispose(): void }; policy?: { dispose(): void }; env: BatchEnv; evalEnv?: BatchEnv }): Promise<void> {
  parts.run?.dispose();
  parts.policy?.dispose();
  await parts.env.dispose();
  await parts.evalEnv?.dispose();
}

export async function openRun(config: RunConfig, checkpoint: PolicyCheckpoint | undefined, ports: RunPorts): Promise<OpenedRun> {
  // The resume state is checked before any env worker or tf variable exists.
  const resume = checkpoint?.metadata.resume ? decodeResumeState(checkpoint.metadata.resume) : undefined;
  const { env, evalEnv } = await openRunEnvs(config, ports);
  const gate = ports.pauseGate;
  let bundle: PolicyBundle | undefined;
  let run: Run | undefined;
  try {
    if (checkpoint) {
      bundle = bundleFromCheckpoint(checkpoint, config.policy.detach_critic_input).bundle;
    } else {
      bundle = freshBundle(config, await warmupObservations(config, env), env.obsDim, env.actionDim);
    }
    run = new Run({ bundle, env, evalEnv, config, clock: ports.clock, beforeMinibatch: gate ? () => gate('minibatch') : undefined, savesMidIteration: gate !== undefined });
    const notes: string[] = [];
    if (checkpoint?.progress) {
      const note = await run.restore(checkpoint.progress, resume);
      if (note) notes.push(note);
      const referenceNote = run.restoreReference(checkpoint.reference);
      if (referenceNote) notes.push(referenceNote);
    }
    const parts = { run, policy: bundle.policy, env, evalEnv };
    return { run, evalEnv, notes, close: () => disposeRunParts(parts) };
  } catch (error) {
    await disposeRunParts({ run, policy: bundle?.policy, env, evalEnv });
    throw error;
  }
}
