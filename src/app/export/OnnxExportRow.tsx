import { useState } from 'react';
import { isImageObsMode } from '../../core/envs/task-types';
import { useRunStore } from '../store/run-slice';
import { errorText, trainerClient } from '../workers/trainer-client';
import { download } from '../export/download';
import { onnxCheckText, ONNX_FAITHFUL_TOLERANCE } from './onnx-check-text';
import { onnxGraphText } from '../policy/flow-only';
import { usePolicyKind } from '../policy/use-policy-kind';

interface CheckedExport {
  name: string;
  bytes: Uint8Array;
  maxAbsDifference: number;
  text: string;
}

const ONNX_NO_IMAGES = 'A diffusion policy\'s ONNX chain graph takes no camera images yet, so this image policy exports as .flowtune or Flowtune weights (tfjs) only.';

/** Export → ONNX: the trainer writes the graph, the page runs it in onnxruntime-web and shows the difference, then it downloads. */
export function OnnxExportRow() {
  const hasModel = useRunStore((state) => (state.status?.phase ?? 'idle') !== 'idle' || state.model?.kind === 'checkpoint');
  const policyKind = usePolicyKind();
  const graphText = onnxGraphText(policyKind);
  // A flow policy's graph takes the images as an input; a diffusion chain graph has none yet (README "Camera images"), said up front, not refused after a click.
  const imageInput = useRunStore((state) => isImageObsMode(state.config.env.obs_type));
  const readsImages = imageInput && policyKind === 'diffusion';
  const [checked, setChecked] = useState<CheckedExport>();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();

  const exportAndCheck = async () => {
    setBusy(true);
    setProblem(undefined);
    setChecked(undefined);
    try {
      const file = await trainerClient().exportOnnx();
      // Loaded only when asked for: the runtime and its wasm are large.
      const { checkOnnxInPage } = await import('./onnx-web-check');
      const result = await checkOnnxInPage(file.bytes, file.check);
      setChecked({ name: file.name, bytes: file.bytes, maxAbsDifference: result.maxAbsDifference, text: onnxCheckText(result.maxAbsDifference, file.check.obsSource, file.model) });
    } catch (error) {
      setProblem(`ONNX export failed: ${errorText(error)}`);
    } finally {
      setBusy(false);
    }
  };

  const faithful = checked !== undefined && checked.maxAbsDifference <= ONNX_FAITHFUL_TOLERANCE;
  return (
    <div className="onnx-export" data-testid="onnx-export">
      <button disabled={!hasModel || busy || readsImages} data-testid="export-onnx" onClick={() => void exportAndCheck()}
        title={readsImages ? ONNX_NO_IMAGES : graphText}>
        {busy ? 'Exporting ONNX…' : 'Model ONNX'}
      </button>
      {checked && (
        <>
          <p className={`small ${faithful ? 'onnx-ok' : 'onnx-bad'}`} data-testid="onnx-check" data-max-abs-diff={checked.maxAbsDifference}>{checked.text}</p>
          <button data-testid="onnx-download" onClick={() => download(checked.name, checked.bytes, 'application/octet-stream')}>Download {checked.name}</button>
        </>
      )}
      {readsImages && <p className="small muted" data-testid="onnx-no-images">{ONNX_NO_IMAGES}</p>}
      {problem && <p className="small onnx-bad" role="alert" data-testid="onnx-problem">{problem}</p>}
    </div>
  );
}
