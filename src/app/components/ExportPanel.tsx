import { formatMetricsCsv, formatMetricsJsonl } from '../../core/metrics';
import { download } from '../export/download';
import { zipStore } from '../export/zip-store';
import { OnnxExportRow } from '../export/OnnxExportRow';
import { useRunStore } from '../store/run-slice';
import { errorText, trainerClient } from '../workers/trainer-client';

async function exportModel(format: 'flowtune' | 'tfjs'): Promise<void> {
  try {
    const files = await trainerClient().exportModel();
    if (format === 'flowtune') download(`${files.baseName}.flowtune`, files.flowtune, 'application/octet-stream');
    // One archive, so the browser starts one download; model.json names its weights file beside it.
    else download(`${files.baseName}.tfjs.zip`, zipStore([{ name: 'model.json', data: files.modelJson }, { name: files.weightsFileName, data: files.weightsBin }]), 'application/zip');
  } catch (error) {
    useRunStore.getState().setRunError(errorText(error));
  }
}

/** ReinFlow's own files of a policy of its layout, in one archive: <name>.pt and normalization.npz. */
async function exportReinflow(): Promise<void> {
  try {
    const files = await trainerClient().exportReinflow();
    download(`${files.baseName}.reinflow.zip`, zipStore([{ name: `${files.baseName}.pt`, data: files.pt }, { name: 'normalization.npz', data: files.normalization }]), 'application/zip');
  } catch (error) {
    useRunStore.getState().setRunError(errorText(error));
  }
}

/** Export of the model (.flowtune, tfjs, ReinFlow .pt), the metrics (CSV, JSONL) and the config (JSON). */
export function ExportPanel() {
  // The run's model, or with no run a loaded checkpoint (as ONNX export offers it too).
  const hasModel = useRunStore((state) => (state.status?.phase ?? 'idle') !== 'idle' || state.model?.kind === 'checkpoint');
  const records = useRunStore((state) => state.records);
  // A checkpoint says what its policy is; a fresh policy is what the config asks for.
  const reinflowShaped = useRunStore((state) => (state.model?.kind === 'checkpoint' ? state.model.info.reinflowLayout : state.config.policy.velocity_net === 'reflow_mlp'));
  const config = useRunStore((state) => state.config);
  const stamp = `${config.task}-it${records.at(-1)?.['progress/iteration'] ?? 0}`;
  return (
    <section className="panel" data-testid="export-panel">
      <h2>Export</h2>
      <div className="button-grid">
        <button disabled={!hasModel} data-testid="export-flowtune" onClick={() => void exportModel('flowtune')}>Model .flowtune</button>
        <button disabled={!hasModel} data-testid="export-tfjs" onClick={() => void exportModel('tfjs')}
          title="One .zip holding model.json and model.weights.bin: the weights for Flowtune with their optimizer state, not a graph tf.loadGraphModel runs; use ONNX to run the policy elsewhere">
          Flowtune weights (tfjs)
        </button>
        <button disabled={!hasModel || !reinflowShaped} data-testid="export-reinflow" onClick={() => void exportReinflow()}
          title={reinflowShaped
            ? "One .zip holding <name>.pt and normalization.npz, which ReinFlow's own loader reads (torch.load(weights_only=True), load_state_dict(strict=True))"
            : "For policies of ReinFlow's FlowMLP layout: a ReinFlow checkpoint you dropped in, or policy.velocity_net=reflow_mlp"}>
          ReinFlow .pt
        </button>
        <button disabled={records.length === 0} data-testid="export-csv" onClick={() => download(`metrics-${stamp}.csv`, formatMetricsCsv(records), 'text/csv')}>Metrics CSV</button>
        <button disabled={records.length === 0} data-testid="export-jsonl" onClick={() => download(`metrics-${stamp}.jsonl`, formatMetricsJsonl(records), 'application/x-ndjson')}>Metrics JSONL</button>
        <button data-testid="export-config" onClick={() => download(`config-${config.task}.json`, `${JSON.stringify(config, null, 2)}\n`, 'application/json')}>Config JSON</button>
      </div>
      <OnnxExportRow />
    </section>
  );
}
