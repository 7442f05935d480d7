import { formatMetricsCsv, formatMetricsJsonl } from '../../core/metrics';
import { download } from '../export/download';
import { OnnxExportRow } from '../export/OnnxExportRow';
import { useRunStore } from '../store/run-slice';
import { errorText, trainerClient } from '../workers/trainer-client';

async function exportModel(format: 'flowtune' | 'tfjs'): Promise<void> {
  try {
    const files = await trainerClient().exportModel();
    if (format === 'flowtune') download(`${files.baseName}.flowtune`, files.flowtune, 'application/octet-stream');
    else {
      download(`${files.baseName}.model.json`, files.modelJson, 'application/json');
      download('model.weights.bin', files.weightsBin, 'application/octet-stream');
    }
  } catch (error) {
    useRunStore.getState().setRunError(errorText(error));
  }
}

/** Export of the model (.flowtune, tfjs), the metrics (CSV, JSONL) and the config (JSON). */
export function ExportPanel() {
  const hasRun = useRunStore((state) => (state.status?.phase ?? 'idle') !== 'idle');
  const records = useRunStore((state) => state.records);
  const config = useRunStore((state) => state.config);
  const stamp = `${config.task}-it${records.at(-1)?.['progress/iteration'] ?? 0}`;
  return (
    <section className="panel" data-testid="export-panel">
      <h2>Export</h2>
      <div className="button-grid">
        <button disabled={!hasRun} data-testid="export-flowtune" onClick={() => void exportModel('flowtune')}>Model .flowtune</button>
        <button disabled={!hasRun} data-testid="export-tfjs" onClick={() => void exportModel('tfjs')}
          title="model.json + weights.bin: the weights for Flowtune with their optimizer state, not a graph tf.loadGraphModel runs; use ONNX to run the policy elsewhere">
          Flowtune weights (tfjs)
        </button>
        <button disabled={records.length === 0} data-testid="export-csv" onClick={() => download(`metrics-${stamp}.csv`, formatMetricsCsv(records), 'text/csv')}>Metrics CSV</button>
        <button disabled={records.length === 0} data-testid="export-jsonl" onClick={() => download(`metrics-${stamp}.jsonl`, formatMetricsJsonl(records), 'application/x-ndjson')}>Metrics JSONL</button>
        <button data-testid="export-config" onClick={() => download(`config-${config.task}.json`, `${JSON.stringify(config, null, 2)}\n`, 'application/json')}>Config JSON</button>
      </div>
      <OnnxExportRow />
    </section>
  );
}
