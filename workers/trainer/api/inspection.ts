/** InspectionApi and ExportApi: probes, chains, episodes and exports, transferred to the page. */
import * as Comlink from 'comlink';
import { probeSample } from '../../../src/core/backend/probe-sample';
import { TrainingError } from '../../../src/core/errors';
import type { ExportApi, InspectionApi } from '../../../src/protocol/trainer-api';
import { loadPolicy } from '../../../src/core/run/families';
import { chainPaths } from '../chain-paths';
import { sampleChains } from '../chain-requests';
import { chainSampleBuffers } from '../../../src/core/studio/chain-sampler';
import { cameraView } from '../camera-view';
import { cameraViewBuffers } from '../../../src/core/studio/camera-view';
import { episodeReplay } from '../episode-replay';
import { liveFrame } from '../live-frame';
import { exportOnnx } from '../onnx-export';
import { exportModelFiles, exportPeerFiles } from '../../../src/core/studio/model-files';
import type { TrainerParts } from '../trainer-parts';

export function inspectionApi(parts: TrainerParts): InspectionApi & ExportApi {
  const withTf = <T>(work: () => Promise<T>) => parts.withTf(work);
  return {
    async probeSample(seed) {
      const result = await withTf(() => probeSample(seed, parts.requireBackend().report.backend));
      return Comlink.transfer(result, [result.actions.buffer]);
    },
    async probeActions(model, seed) {
      const actions = await withTf(async () => {
        const session = parts.session;
        if (model === 'run') {
          const run = session.run;
          if (!run) throw new TrainingError('there is no run to probe: press Train first');
          return run.learner.probe(run.config, seed);
        }
        const selected = session.models.selected;
        if (!selected) throw new TrainingError('no checkpoint is selected: drop one in first');
        const policy = loadPolicy(selected.checkpoint, session.config);
        try {
          return await policy.probe(session.config, seed);
        } finally {
          policy.dispose();
        }
      });
      return Comlink.transfer({ model, seed, actions }, [actions.buffer]);
    },
    async sampleChains(request) {
      const sample = await withTf(() => sampleChains(parts.session, request));
      return Comlink.transfer(sample, chainSampleBuffers(sample));
    },
    listEpisodes: async () => parts.session.episodes.list(),
    async episodeReplay(id) {
      const replay = await episodeReplay(parts.session.episodes, id);
      return Comlink.transfer(replay, [replay.poses.poses.buffer, replay.poses.tcp.buffer]);
    },
    async chainPaths(request) {
      const paths = await withTf(() => chainPaths(parts.session, request));
      const cloud = paths.pointCloud ? [paths.pointCloud.points.buffer, paths.pointCloud.shares.buffer] : [];
      return Comlink.transfer(paths, [paths.paths.buffer, paths.odePath.buffer, paths.poses.poses.buffer, paths.poses.tcp.buffer, ...cloud]);
    },
    async liveFrame(envIndex) {
      const frame = await liveFrame(parts.session, envIndex);
      return frame ? Comlink.transfer(frame, [frame.poses.poses.buffer, frame.poses.tcp.buffer]) : null;
    },
    async cameraView(request) {
      const view = await cameraView(parts.session.episodes, request);
      return Comlink.transfer(view, cameraViewBuffers(view));
    },
    async exportModel() {
      const files = await exportModelFiles(parts.session.run, parts.session.models.selected);
      return Comlink.transfer(files, [files.flowtune.buffer as ArrayBuffer, files.weightsBin.buffer as ArrayBuffer]);
    },
    async exportPeer() {
      const files = await exportPeerFiles(parts.session.run, parts.session.models.selected);
      return Comlink.transfer(files, [files.pt.buffer as ArrayBuffer, files.normalization.buffer as ArrayBuffer]);
    },
    async exportOnnx() {
      const file = await withTf(() => exportOnnx(parts.session));
      const { check } = file;
      return Comlink.transfer(file, [file.bytes.buffer as ArrayBuffer, check.obs.buffer as ArrayBuffer, check.x0.buffer as ArrayBuffer, check.actions.buffer as ArrayBuffer]);
    },
  };
}
