import { useMemo, useRef, useState, type DragEvent } from 'react';
import { useRecipeStore } from '../store/recipe-slice';
import { useRunStore } from '../store/run-slice';
import { parseTaskVariant, taskVariant, taskVariants } from '../components/task-variants';
import { droppedEntries } from '../runs/read-dropped-folder';
import { readChosenTaskFolder, readDroppedTaskFolder, type TaskFolderRead } from './read-task-folder';
import { addTaskFolder, removeTask, selectTask, taskSwitchBlocker } from './task-actions';

/** Folder pickers are not in React's input attributes; both spellings reach the DOM as written. */
const directoryAttributes: Record<string, string> = { webkitdirectory: '', directory: '' };

/** The picker's entry that opens the folder chooser; no task has this name (names start with a letter or digit). */
const ADD_TASK = '+add';

/**
 * The Task control: the built-in tasks (with their point-cloud variants), the tasks the user added,
 * and Add task…, which takes a folder (task.js, its scene XML, meshes) chosen here or dropped onto
 * the control. While a run or a demos stage holds the task, only Add task… stays open.
 */
export function TaskPicker() {
  const task = useRunStore((state) => state.config.task);
  const obsType = useRunStore((state) => state.config.env.obs_type);
  const tasks = useRunStore((state) => state.tasks);
  const phase = useRunStore((state) => state.status?.phase ?? 'idle');
  const recipePhase = useRecipeStore((state) => state.status?.phase);
  const blocked = taskSwitchBlocker(phase, recipePhase);
  const variants = useMemo(() => taskVariants(tasks, { task, obsType }), [tasks, task, obsType]);
  const added = useMemo(() => new Set(tasks.filter((entry) => !entry.builtIn).map((entry) => entry.name)), [tasks]);
  const [busy, setBusy] = useState(false);
  const [dragging, setDragging] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const current = taskVariant(task, obsType).value;

  const add = async (reading: Promise<TaskFolderRead>) => {
    setBusy(true);
    try {
      await addTaskFolder(reading);
    } finally {
      setBusy(false);
    }
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (busy) return;
    // The entries must be taken now: the drop's data is gone after this handler returns.
    const entries = droppedEntries(event.dataTransfer);
    void add(entries.length > 0 ? readDroppedTaskFolder(entries) : readChosenTaskFolder(Array.from(event.dataTransfer.files)));
  };
  const option = (variant: (typeof variants)[number]) => (
    <option key={variant.value} value={variant.value} disabled={blocked !== undefined && variant.value !== current}>{variant.label}</option>
  );
  return (
    <div className={`task-control${dragging ? ' dragging' : ''}`} data-testid="task-control" data-busy={busy ? '1' : '0'}
      onDragOver={(event) => { event.preventDefault(); setDragging(true); }} onDragLeave={() => setDragging(false)} onDrop={onDrop}>
      <label className="task-picker">
        task
        <select value={current} disabled={busy} data-testid="task"
          title={blocked ?? 'Task and observation to train on; Add task… takes a folder with task.js, its scene XML and meshes (or drop one here)'}
          onChange={(event) => {
            if (event.target.value === ADD_TASK) {
              inputRef.current?.click();
              return;
            }
            const variant = parseTaskVariant(tasks, event.target.value);
            if (variant) void selectTask(variant.task, variant.obsType);
          }}>
          <optgroup label="Built-in">{variants.filter((variant) => !added.has(variant.task)).map(option)}</optgroup>
          {added.size > 0 && <optgroup label="Added">{variants.filter((variant) => added.has(variant.task)).map(option)}</optgroup>}
          <option value={ADD_TASK} data-testid="task-add">Add task…</option>
        </select>
      </label>
      {busy && <span className="muted" data-testid="task-checking">checking the task…</span>}
      {!busy && added.has(task) && !blocked && (
        <button className="link" data-testid="task-remove" title="Forget this added task (runs trained on it stay in the Runs list)" onClick={() => void removeTask(task)}>remove</button>
      )}
      <input ref={inputRef} type="file" multiple {...directoryAttributes} hidden data-testid="task-folder-input"
        onChange={(event) => { void add(readChosenTaskFolder(Array.from(event.target.files ?? []))); event.target.value = ''; }} />
    </div>
  );
}
