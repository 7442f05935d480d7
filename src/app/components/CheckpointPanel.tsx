import { useState, type DragEvent } from 'react';
import type { CheckpointForOtherTask, CheckpointInfo, DroppedCheckpoint, ModelSource } from '../../protocol/trainer-api';
import { freshPolicyText } from '../../core/config/fresh-policy-text';
import { obsTypeSuffix } from '../../core/studio/obs-type-words';
import { formatCount } from '../plot/format';
import { useRunStore } from '../store/run-slice';
import { selectTask, taskSwitchBlocker } from '../tasks/task-actions';
import { errorText, trainerClient } from '../workers/trainer-client';
import { useRecipeStore } from '../store/recipe-slice';
import { otherTaskText, type TaskHold } from './other-task-text';
import { deterministicActionText } from '../policy/flow-only';
import { usePolicyKind } from '../policy/use-policy-kind';
import { droppedEntries, type FoundFile } from '../runs/read-dropped-folder';
import { CHECKPOINT_EXTENSIONS, chosenCheckpointFiles, droppedCheckpointFiles, filesToCheckpoint } from './read-checkpoint-drop';

function Metadata({ info }: { info: CheckpointInfo }) {
  const evalText = Object.entries(info.eval).map(([key, value]) => `${key} ${Number(value.toPrecision(3))}`).join(' · ') || 'none';
  return (
    <dl className="facts" data-testid="checkpoint-meta">
      <dt>source</dt><dd className="mono ellipsis" title={info.source} data-testid="meta-source">{info.source}</dd>
      <dt>task</dt><dd data-testid="meta-task">{info.task}</dd>
      <dt>architecture</dt><dd className="mono" data-testid="meta-architecture">{info.architecture}</dd>
      <dt>stage</dt><dd data-testid="meta-stage">{info.stage}</dd>
      <dt>step</dt><dd className="mono" data-testid="meta-step">{formatCount(info.step)} (iteration {info.iteration}, {formatCount(info.envSteps)} env steps)</dd>
      <dt>eval</dt><dd data-testid="meta-eval">{evalText}</dd>
      <dt>optimizer state</dt><dd>{info.hasOptimizerState ? 'yes (resumes exactly)' : 'no'}</dd>
    </dl>
  );
}

const PROBE_SEED = 7;

function ActionProbe() {
  const actions = deterministicActionText(usePolicyKind());
  const [probes, setProbes] = useState<Record<string, string>>({});
  const probe = async (model: 'run' | 'selected') => {
    try {
      const result = await trainerClient().probeActions(model, PROBE_SEED);
      setProbes((previous) => ({ ...previous, [model]: Array.from(result.actions, (value) => value.toFixed(6)).join(' ') }));
    } catch (error) {
      setProbes((previous) => ({ ...previous, [model]: `error: ${errorText(error)}` }));
    }
  };
  return (
    <details className="probe-actions">
      <summary>Eval actions for seed {PROBE_SEED}</summary>
      <p className="muted">{actions[0].toUpperCase() + actions.slice(1)} of a model on a seeded observation; an exported and re-imported model gives the same numbers.</p>
      <div className="row">
        <button data-testid="probe-run" onClick={() => probe('run')}>Run model</button>
        <button data-testid="probe-selected" onClick={() => probe('selected')}>Selected checkpoint</button>
      </div>
      {(['run', 'selected'] as const).map((model) => probes[model] && (
        <p key={model} className="mono probe-values" data-testid={`probe-${model}-values`}>{probes[model]}</p>
      ))}
    </details>
  );
}

/** A model chosen while a run exists: what it is, that it applies after Reset, and the Reset that applies it. */
function NextModel({ next }: { next: ModelSource }) {
  const what = next.kind === 'checkpoint' ? `${next.info.source} (${next.info.stage}, iteration ${next.info.iteration})` : 'a freshly initialized policy';
  return (
    <p className="notice notice-ok" role="status" data-testid="model-next">
      After Reset, Train starts from <span className="mono">{what}</span>; until then the run goes on with the model above.
      <button className="link" data-testid="model-next-reset" onClick={() => useRunStore.getState().setResetAsked(true)}>Reset…</button>
    </p>
  );
}

/** The sentence after a file was accepted: it is the next run's model, at once or after Reset. */
function loadedText(source: string, afterReset: boolean): string {
  return afterReset
    ? `${source} is checked and waits for Reset: the current run goes on with its own model`
    : `${source} loaded: the next run starts from it`;
}

/** What keeps the task from switching now, by the task picker's own rule. */
function taskHold(): TaskHold {
  const phase = useRunStore.getState().status?.phase ?? 'idle';
  if (phase !== 'idle') return 'run';
  return taskSwitchBlocker(phase, useRecipeStore.getState().status?.phase) ? 'demos' : undefined;
}

/** A file for another task, with no run: one click switches the task, then opens the file. */
interface SwitchOffer {
  files: DroppedCheckpoint;
  otherTask: CheckpointForOtherTask;
}

/** Drop zone and file picker for checkpoints; shows the metadata of the model Train uses, or the reader's one sentence. */
export function CheckpointPanel() {
  const model = useRunStore((state) => state.model);
  const next = useRunStore((state) => state.nextModel);
  const hasRun = useRunStore((state) => (state.status?.phase ?? 'idle') !== 'idle');
  const notice = useRunStore((state) => state.checkpointNotice);
  const freshPolicy = useRunStore((state) => freshPolicyText(state.config));
  const [dragging, setDragging] = useState(false);
  const [switchOffer, setSwitchOffer] = useState<SwitchOffer>();
  const open = async (checkpoint: DroppedCheckpoint) => {
    const { setCheckpointNotice } = useRunStore.getState();
    try {
      const loaded = await trainerClient().loadCheckpoint(checkpoint);
      if (loaded.kind === 'other-task') {
        const hold = taskHold();
        const offer = loaded.known && hold === undefined;
        setCheckpointNotice({ kind: offer ? 'ok' : 'error', text: otherTaskText(loaded, hold) });
        setSwitchOffer(offer ? { files: checkpoint, otherTask: loaded } : undefined);
        return;
      }
      setCheckpointNotice({ kind: 'ok', text: loadedText(loaded.info.source, loaded.afterReset), notes: loaded.notes });
    } catch (error) {
      setCheckpointNotice({ kind: 'error', text: errorText(error) });
    }
  };
  const load = async (collecting: Promise<FoundFile[] | string> | FoundFile[]) => {
    const files = await collecting;
    if (Array.isArray(files) && files.length === 0) return;
    setSwitchOffer(undefined);
    const checkpoint = Array.isArray(files) ? await filesToCheckpoint(files) : files;
    if (typeof checkpoint === 'string') {
      useRunStore.getState().setCheckpointNotice({ kind: 'error', text: checkpoint });
      return;
    }
    await open(checkpoint);
  };
  const switchTask = async (offer: SwitchOffer) => {
    setSwitchOffer(undefined);
    await selectTask(offer.otherTask.task, offer.otherTask.obsType);
    await open(offer.files);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    // The entries must be taken now: the drop's data is gone after this handler returns. A drop made by a script has none.
    const entries = droppedEntries(event.dataTransfer);
    void load(entries.length > 0 ? droppedCheckpointFiles(entries) : chosenCheckpointFiles(Array.from(event.dataTransfer.files)));
  };
  return (
    <section className="panel" data-testid="checkpoint-panel">
      <h2>Model{hasRun && <span className="muted" data-testid="model-of-run" title="The checkpoint the current run started from: Train continues that run"> · current run's</span>}</h2>
      <label className={`dropzone${dragging ? ' dragging' : ''}`} data-testid="dropzone"
        onDragOver={(event) => { event.preventDefault(); setDragging(true); }} onDragLeave={() => setDragging(false)} onDrop={onDrop}>
        Drop a <b>.flowtune</b>, a ReinFlow <b>.pt</b> + <b>normalization.npz</b> (or their folder), a tfjs <b>model.json</b> + <b>.bin</b> (or their <b>.zip</b>), or click to choose
        <input type="file" multiple accept={CHECKPOINT_EXTENSIONS.join(',')} data-testid="checkpoint-input"
          onChange={(event) => { void load(chosenCheckpointFiles(Array.from(event.target.files ?? []))); event.target.value = ''; }} />
      </label>
      {notice && (
        <p className={`notice notice-${notice.kind}`} role={notice.kind === 'error' ? 'alert' : 'status'} data-testid="checkpoint-notice">
          {notice.text}
          {switchOffer && !hasRun && (
            <button className="notice-action" data-testid="checkpoint-switch-task" onClick={() => void switchTask(switchOffer)}>
              Switch to task '{switchOffer.otherTask.task}'{obsTypeSuffix(switchOffer.otherTask.obsType)}
            </button>
          )}
        </p>
      )}
      {notice?.notes && notice.notes.length > 0 && (
        <ul className="notice-notes" data-testid="checkpoint-notes">
          {notice.notes.map((note) => <li key={note}>{note}</li>)}
        </ul>
      )}
      {model?.kind === 'checkpoint' && <Metadata info={model.info} />}
      {model?.kind === 'fresh' && <p className="muted" data-testid="model-fresh">{model.reason}</p>}
      {model?.kind === 'fresh' && (
        <p className="small" title="The policy Train builds from the config (policy.*, env.obs_type); the Config tab changes it until a run starts">
          fresh policy: <span className="mono" data-testid="model-fresh-architecture">{freshPolicy}</span>
        </p>
      )}
      {next && hasRun && <NextModel next={next} />}
      <ActionProbe />
    </section>
  );
}
