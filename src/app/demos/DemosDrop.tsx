import { useRef, useState, type DragEvent } from 'react';
import { selectOccupied, useRecipeStore } from '../store/recipe-slice';
import { loadDemosFile, type DatasetOptions } from './recipe-actions';

/**
 * Drop zone and file picker for a `.demos` file or another project's dataset (D4RL or robomimic
 * HDF5, ReinFlow/DPPO train.npz with its normalization.npz); the worker converts and checks it
 * against the selected task. robomimic files also need their obs keys, and may take a filter key.
 */
export function DemosDrop() {
  const occupied = useRecipeStore(selectOccupied);
  const [dragging, setDragging] = useState(false);
  const [options, setOptions] = useState<DatasetOptions>({ obsKeys: '', filter: '' });
  const inputRef = useRef<HTMLInputElement>(null);
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    void loadDemosFile(Array.from(event.dataTransfer.files), options);
  };
  return (
    <div className={`dropzone demos-drop${dragging ? ' dragging' : ''}`} data-testid="demos-drop"
      onDragOver={(event) => { event.preventDefault(); setDragging(true); }} onDragLeave={() => setDragging(false)} onDrop={onDrop}>
      <p>Or drop a <b>.demos</b> file (from <span className="mono">npm run demos</span> or an export) here, or a dataset: a D4RL or robomimic <b>.hdf5</b>, or a ReinFlow/DPPO <b>train.npz</b> with its <b>normalization.npz</b>.</p>
      <button type="button" disabled={occupied !== undefined} title={occupied} data-testid="demos-choose" onClick={() => inputRef.current?.click()}>Choose files…</button>
      <input ref={inputRef} type="file" accept=".demos,.hdf5,.h5,.npz" multiple hidden data-testid="demos-file"
        onChange={(event) => { void loadDemosFile(Array.from(event.target.files ?? []), options); event.target.value = ''; }} />
      <div className="dataset-options" title="robomimic files only: which obs keys make the task's observation, in its order, and which demos to read">
        <label>
          <span>robomimic obs_keys</span>
          <input type="text" className="mono" spellCheck={false} placeholder="object,robot0_eef_pos,…" value={options.obsKeys} data-testid="dataset-obs-keys"
            onChange={(event) => setOptions({ ...options, obsKeys: event.target.value })} />
        </label>
        <label>
          <span>filter</span>
          <input type="text" className="mono" spellCheck={false} placeholder="train" value={options.filter} data-testid="dataset-filter"
            onChange={(event) => setOptions({ ...options, filter: event.target.value })} />
        </label>
      </div>
    </div>
  );
}
