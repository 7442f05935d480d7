import type { RunConfig } from '../../core/config';
import { formatMetricsCsv, formatMetricsJsonl } from '../../core/metrics';
import type { PeerFormat } from '../../protocol/export-api';
import type { ModelSource } from '../../protocol/run-control-api';
import { download } from '../export/download';
import { zipStore } from '../export/zip-store';
import { OnnxExportRow } from '../export/OnnxExportRow';
import { useRunStore } from '../store/run-slice';
import { errorText, trainerClient } from '../workers/trainer-client';

const PEER_NAMES: Record<PeerFormat, string> = { reinflow: 'ReinFlow', dppo: 'DPPO' };

/** The peer whose layout the model has: a checkpoint says; a fresh policy is what the config asks for. */
function peerOfModel(model: ModelSource | null | undefined, config: RunConfig): PeerFormat | null {
  if (model?.kind === 'checkpoint') return model.info.peerLayout;
  if (config.policy.velocity_net !== 'reflow_mlp' || config.policy.kind === 'gaussian') return null;
  return config.policy.kind === 'diffusion' ? 'dppo' : 'reinflow';
}

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

/** A peer's own files of a policy of its layout (ReinFlow's or DPPO's), in one archive: <name>.pt and normalization.npz. */
async function exportPeer(): Promise<void> {
  try {
    const files = await trainerClient().exportPeer();
    download(`${files.baseName}.${files.format}.zip`, zipStore([{ name: `${files.baseName}.pt`, data: files.pt }, { name: 'normalization.npz', data: files.normalization }]), 'application/zip');
  } catch (error) {
    useRunStore.getState().setRunError(errorText(error));
  }
}

/** Export of the model (.flowtune, tfjs, ReinFlow's or DPPO's .pt), the metrics (CSV, JSONL) and the config (JSON). */
export function ExportPanel() {
  // The run's model, or with no run a loaded checkpoint (as ONNX export offers it too).
  const hasModel = useRunStore((state) => (state.status?.phase ?? 'idle') !== 'idle' || state.model?.kind === 'checkpoint');
  const records = useRunStore((state) => state.records);
  // A checkpoint says what its policy is; a fresh policy is what the config asks for.
  const peer = useRunStore((state) => peerOfModel(state.model, state.config));
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
        <button disabled={!hasModel || !peer} data-testid="export-peer" onClick={() => void exportPeer()}
          title={peer
            ? `One .zip holding <name>.pt and normalization.npz, which ${PEER_NAMES[peer]}'s own loader reads (torch.load(weights_only=True), load_state_dict(strict=True))`
            : "For policies of ReinFlow's FlowMLP or DPPO's DiffusionMLP layout: a checkpoint of theirs you dropped in, or policy.velocity_net=reflow_mlp"}>
          {peer ? PEER_NAMES[peer] : 'ReinFlow / DPPO'} .pt
        </button>
        <button disabled={records.length === 0} data-testid="export-csv" onClick={() => download(`metrics-${stamp}.csv`, formatMetricsCsv(records), 'text/csv')}>Metrics CSV</button>
        <button disabled={records.length === 0} data-testid="export-jsonl" onClick={() => download(`metrics-${stamp}.jsonl`, formatMetricsJsonl(records), 'application/x-ndjson')}>Metrics JSONL</button>
        <button data-testid="export-config" onClick={() => download(`config-${config.task}.json`, `${JSON.stringify(config, null, 2)}\n`, 'application/json')}>Config JSON</button>
      </div>
      <OnnxExportRow />
    </section>
  );
}
