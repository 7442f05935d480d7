/**
 * Turns a run config plus, optionally, a decoded checkpoint of any policy family into a live Run
 * with its envs (DESIGN.md §2, §16). A checkpoint written during a run resumes it exactly: counters,
 * optimizer moments, metric history, env and RNG states, and the BC reference policy.
 */
import type { RunConfig } from '../config/run-config';
import type { BatchEnv } from '../envs/batch-env';
import type { FamilyCheckpoint } from './family-checkpoint';
import { chainLengthNote } from './chain-length-note';
import { familyOf } from './families';
import { gatedEnv } from './gated-env';
import { decodeResumeState } from './resume-codec';
import { runEnvConfig } from './run-env-config';
import type { FamilyLearner } from './policy-family';
import type { RunPorts } from './run-ports';
import { Run } from './run';

export interface OpenedRun {
  run: Run;
  /** The evaluation envs, when the config evaluates. */
  evalEnv?: BatchEnv;
  /** Sentences a host shows once: why a resume is not exact, or a fine-tune at another K than its checkpoint's. */
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

/** What an opener built, disposed in reverse order: the run (with its policy), a policy no run owns yet, then the envs. */
export async function disposeRunParts(parts: { run?: { dispose(): void }; policy?: { dispose(): void }; env: BatchEnv; evalEnv?: BatchEnv }): Promise<void> {
  parts.run?.dispose();
  parts.policy?.dispose();
  await parts.env.dispose();
  await parts.evalEnv?.dispose();
}

/** A live run of `config`'s policy family: fresh, or from `checkpoint` (resumed exactly when it holds run progress). */
export async function openRun(config: RunConfig, checkpoint: FamilyCheckpoint | undefined, ports: RunPorts): Promise<OpenedRun> {
  // The resume state is checked before any env worker or tf variable exists.
  const resume = checkpoint?.metadata.resume ? decodeResumeState(checkpoint.metadata.resume) : undefined;
  const family = familyOf(config.policy.kind);
  const { env, evalEnv } = await openRunEnvs(config, ports);
  const gate = ports.pauseGate;
  let learner: FamilyLearner | undefined;
  let run: Run | undefined;
  try {
    const built = await family.learner(config, env, checkpoint);
    learner = built.learner;
    run = new Run({ learner, env, evalEnv, config, clock: ports.clock, beforeMinibatch: gate ? () => gate('minibatch') : undefined, savesMidIteration: gate !== undefined });
    const chainNote = chainLengthNote(config, checkpoint);
    const notes = [...built.notes, ...(chainNote ? [chainNote] : [])];
    if (checkpoint?.progress) {
      const note = await run.restore(checkpoint.progress, resume);
      if (note) notes.unshift(note);
    }
    const parts = { run, env, evalEnv };
    return { run, evalEnv, notes, close: () => disposeRunParts(parts) };
  } catch (error) {
    await disposeRunParts({ run, policy: run ? undefined : learner, env, evalEnv });
    throw error;
  }
}
