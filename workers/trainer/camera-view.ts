/** The Inspect tab's camera images, rendered in the trainer worker's MuJoCo (DESIGN.md §7: the page never loads it). */
import { cameraView as viewOf } from '../../src/core/studio/camera-view';
import type { EpisodeStore } from '../../src/core/studio/episode-store';
import type { CameraView, CameraViewRequest } from '../../src/protocol/trainer-api';
import { replayScenes } from './episode-replay';

export async function cameraView(store: EpisodeStore, request: CameraViewRequest): Promise<CameraView> {
  return viewOf(store, await replayScenes(), request);
}
