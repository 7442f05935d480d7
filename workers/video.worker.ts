/** The video worker (DESIGN.md §7): a thin comlink adapter over workers/video. */
import * as Comlink from 'comlink';
import type { VideoWorkerApi } from '../src/protocol/video-api';
import { renderEpisodeFrames, renderEpisodeWebm, videoCapabilities } from './video/render-episode';

const api: VideoWorkerApi = {
  capabilities: () => videoCapabilities(),
  async renderEpisode(request) {
    const video = await renderEpisodeWebm(request);
    return Comlink.transfer(video, [video.bytes.buffer]);
  },
  async renderFrames(request) {
    const rendered = await renderEpisodeFrames(request);
    return Comlink.transfer(rendered, rendered.frames);
  },
};

Comlink.expose(api);
