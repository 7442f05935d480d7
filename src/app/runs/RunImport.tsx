import { useRef, useState, type DragEvent } from 'react';
import { useCompareStore } from '../store/compare-slice';
import { droppedEntries, readChosenFiles, readDroppedEntries, type FolderRead } from './read-dropped-folder';
import { importFiles } from './runs-actions';

/** Folder pickers are not in React's input attributes; both spellings reach the DOM as written. */
const directoryAttributes: Record<string, string> = { webkitdirectory: '', directory: '' };

/** Drop zone and folder picker for run folders (metrics.jsonl + config.json) and sweep folders (summary.json + runs/). */
export function RunImport() {
  const [dragging, setDragging] = useState(false);
  const [busy, setBusy] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const importRead = async (reading: Promise<FolderRead>) => {
    setBusy(true);
    try {
      const read = await reading;
      if ('problem' in read) useCompareStore.getState().setNotice({ kind: 'error', text: read.problem });
      else await importFiles(read.files);
    } finally {
      setBusy(false);
    }
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    // The entries must be taken now: the drop's data is gone after this handler returns.
    const entries = droppedEntries(event.dataTransfer);
    void importRead(entries.length > 0 ? readDroppedEntries(entries) : readChosenFiles(Array.from(event.dataTransfer.files)));
  };
  return (
    <section className="panel" data-testid="runs-import">
      <h2>Import</h2>
      <div className={`dropzone${dragging ? ' dragging' : ''}`} data-testid="runs-drop"
        onDragOver={(event) => { event.preventDefault(); setDragging(true); }} onDragLeave={() => setDragging(false)} onDrop={onDrop}>
        <p>Drop a <b>run folder</b> (metrics.jsonl, config.json) or a <b>sweep folder</b> (summary.json, runs/) here.</p>
        <button type="button" disabled={busy} data-testid="runs-import-button" onClick={() => inputRef.current?.click()}>
          {busy ? 'importing…' : 'Choose a folder…'}
        </button>
        <input ref={inputRef} type="file" multiple {...directoryAttributes} hidden data-testid="runs-import-input"
          onChange={(event) => { void importRead(readChosenFiles(Array.from(event.target.files ?? []))); event.target.value = ''; }} />
      </div>
      <p className="muted small">Only the text files are read; checkpoints stay on disk.</p>
    </section>
  );
}
