import { useRef, useState, type DragEvent } from 'react';
import { selectOccupied, useRecipeStore } from '../store/recipe-slice';
import { loadDemosFile } from './recipe-actions';

/** Drop zone and file picker for a `.demos` file; the worker checks it against the selected task. */
export function DemosDrop() {
  const occupied = useRecipeStore(selectOccupied);
  const [dragging, setDragging] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    void loadDemosFile(Array.from(event.dataTransfer.files));
  };
  return (
    <div className={`dropzone demos-drop${dragging ? ' dragging' : ''}`} data-testid="demos-drop"
      onDragOver={(event) => { event.preventDefault(); setDragging(true); }} onDragLeave={() => setDragging(false)} onDrop={onDrop}>
      <p>Or drop a <b>.demos</b> file (from <span className="mono">npm run demos</span> or an export) here.</p>
      <button type="button" disabled={occupied !== undefined} title={occupied} data-testid="demos-choose" onClick={() => inputRef.current?.click()}>Choose a .demos file…</button>
      <input ref={inputRef} type="file" accept=".demos" hidden data-testid="demos-file"
        onChange={(event) => { void loadDemosFile(Array.from(event.target.files ?? [])); event.target.value = ''; }} />
    </div>
  );
}
