import { useState, type DragEvent } from 'react';
import type { CheckpointFiles, CheckpointForOtherTask, CheckpointInfo, ModelSource } from '../../protocol/trainer-api';
import { unzipStored } from '../export/zip-store';
import { formatCount } from '../plot/format';
import { useRunStore } from '../store/run-slice';
import { selectTask, taskSwitchBlocker } from '../tasks/task-actions';
import { errorText, trainerClient } from '../workers/trainer-client';
import { useRecipeStore } from '../store/recipe-slice';
import { otherTaskText, type TaskHold } from './other-task-text';
import { deterministicActionText } from '../policy/flow-only';
import { usePolicyKind } from '../policy/use-policy-kind';

/** A .flowtune file, a model.json with its .bin, or Export's .zip of the two; a sentence otherwise. */
async function filesToCheckpoint(files: File[]): Promise<CheckpointFiles | string> {
  const flowtune = files.find((file) => file.name.endsWith('.flowtune'));
  if (flowtune) return { kind: 'flowtune', name: flowtune.name, bytes: new Uint8Array(await flowtune.arrayBuffer()) };
  const zip = files.find((file) => file.name.endsWith('.zip'));
  if (zip) return zipToCheckpoint(zip);
  const modelJson = files.find((file) => file.name.endsWith('.json'));
  const weights = files.find((file) => file.name.endsWith('.bin'));
  if (modelJson && weights) {
    return { kind: 'tfjs', name: modelJson.name, modelJson: await modelJson.text(), weights: new Uint8Array(await weights.arrayBuffer()) };
  }
  if (modelJson) return `${modelJson.name} needs its weights file: drop the model.json together with its .bin`;
  return `${files.map((file) => file.name).join(', ')} is not a checkpoint: drop a .flowtune file, or a tfjs model.json with its .bin (or their .zip)`;
}

/** Export's tfjs archive: a stored .zip holding a model.json and its .bin. */
async function zipToCheckpoint(zip: File): Promise<CheckpointFiles | string> {
  const entries = unzipStored(new Uint8Array(await zip.arrayBuffer()));
  if (typeof entries === 'string') return `${zip.name}: ${entries}`;
  const json = [...entries.keys()].find((name) => name.endsWith('.json'));
  const bin = [...entries.keys()].find((name) => name.endsWith('.bin'));
  if (!json || !bin) return `${zip.name} holds no model.json with its .bin: drop the archive Export → Flowtune weights (tfjs) gives`;
  return { kind: 'tfjs', name: zip.name, modelJson: new TextDecoder().decode(entries.get(json)), weights: entries.get(bin)! };
}

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
  files: CheckpointFiles;
  otherTask: CheckpointForOtherTask;
}

/** Drop zone and file picker for checkpoints; shows the metadata of the model Train uses, or the reader's one sentence. */
export function CheckpointPanel() {
  const model = useRunStore((state) => state.model);
  const next = useRunStore((state) => state.nextModel);
  const hasRun = useRunStore((state) => (state.status?.phase ?? 'idle') !== 'idle');
  const notice = useRunStore((state) => state.checkpointNotice);
  const [dragging, setDragging] = useState(false);
  const [switchOffer, setSwitchOffer] = useState<SwitchOffer>();
  const open = async (checkpoint: CheckpointFiles) => {
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
      setCheckpointNotice({ kind: 'ok', text: loadedText(loaded.info.source, loaded.afterReset) });
    } catch (error) {
      setCheckpointNotice({ kind: 'error', text: errorText(error) });
    }
  };
  const load = async (fileList: FileList | null) => {
    const files = Array.from(fileList ?? []);
    if (files.length === 0) return;
    setSwitchOffer(undefined);
    const checkpoint = await filesToCheckpoint(files);
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
    void load(event.dataTransfer.files);
  };
  return (
    <section className="panel" data-testid="checkpoint-panel">
      <h2>Model{hasRun && <span className="muted" data-testid="model-of-run" title="The checkpoint the current run started from: Train continues that run"> · current run's</span>}</h2>
      <label className={`dropzone${dragging ? ' dragging' : ''}`} data-testid="dropzone"
        onDragOver={(event) => { event.preventDefault(); setDragging(true); }} onDragLeave={() => setDragging(false)} onDrop={onDrop}>
        Drop a <b>.flowtune</b>, or a tfjs <b>model.json</b> with its <b>.bin</b> (or their <b>.zip</b>), or click to choose
        <input type="file" multiple accept=".flowtune,.json,.bin,.zip" data-testid="checkpoint-input" onChange={(event) => { void load(event.target.files); event.target.value = ''; }} />
      </label>
      {notice && (
        <p className={`notice notice-${notice.kind}`} role={notice.kind === 'error' ? 'alert' : 'status'} data-testid="checkpoint-notice">
          {notice.text}
          {switchOffer && !hasRun && (
            <button className="notice-action" data-testid="checkpoint-switch-task" onClick={() => void switchTask(switchOffer)}>
              Switch to task '{switchOffer.otherTask.task}'{switchOffer.otherTask.obsType === 'pointcloud' ? ' (point cloud)' : ''}
            </button>
          )}
        </p>
      )}
      {model?.kind === 'checkpoint' && <Metadata info={model.info} />}
      {model?.kind === 'fresh' && <p className="muted" data-testid="model-fresh">{model.reason}</p>}
      {next && hasRun && <NextModel next={next} />}
      <ActionProbe />
    </section>
  );
}
