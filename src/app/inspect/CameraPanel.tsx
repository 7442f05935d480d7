import { useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { depthImageRgba, depthRange, rgbImageRgba } from '../../core/render/depth-colour-map';
import type { CameraSource, CameraViewRequest } from '../../protocol/trainer-api';
import { useEpisodeStore } from '../store/episode-slice';
import { useRunStore } from '../store/run-slice';
import { trainerClient } from '../workers/trainer-client';
import { useLatestRequest } from '../workers/use-latest-request';
import { policyImageText, runCameraName } from './camera-run-text';
import { DepthLegend } from './DepthLegend';
import { PixelCanvas } from './PixelCanvas';

/** With no episode open, the camera shows the task as this seed's reset leaves it. */
const RESET_SEED = 0;

function sourceText(source: CameraSource): string {
  return source.kind === 'episode' ? `episode ${source.id}, step ${source.step}` : `${source.task} after reset (seed ${source.seed})`;
}

/**
 * What a camera of the task sees (DESIGN.md §19): its rgb image and depth, ray-cast in the trainer
 * worker from the replay's current frame (or from a seeded reset before an episode is open), as a
 * camera policy sees the scene. The page only draws the returned pixels.
 */
export function CameraPanel() {
  const selectedId = useEpisodeStore((state) => state.selectedId);
  const replayStep = useEpisodeStore((state) => state.replayStep);
  const task = useRunStore((state) => state.config.task);
  const imageSize = useRunStore((state) => state.config.env.image_size);
  // A run that reads cameras (depth clouds, images) names them; the first is the one its policy starts from.
  const runCamera = useRunStore((state) => runCameraName(state.config.env));
  const cameraEnv = useRunStore(useShallow((state) => ({ obs_type: state.config.env.obs_type, camera: state.config.env.camera, image_size: state.config.env.image_size })));
  const [chosen, setChosen] = useState<string>();
  const source: CameraSource = selectedId ? { kind: 'episode', id: selectedId, step: replayStep } : { kind: 'reset', task, seed: RESET_SEED };
  const camera = chosen ?? runCamera;
  const request: CameraViewRequest = { source, ...(camera ? { camera } : {}), imageSize };
  const key = JSON.stringify(request);
  const { value: view, problem, pending } = useLatestRequest(key, () => trainerClient().cameraView(request), (next) => {
    // A camera the new task lacks falls back to its first.
    if (chosen && !next.cameras.includes(chosen)) setChosen(undefined);
  });
  const image = view?.image;
  const policyImage = view && view.cameras.length > 0 ? policyImageText(cameraEnv, view.cameras) : undefined;
  const pixels = useMemo(() => image && { rgb: rgbImageRgba(image.rgb), range: depthRange(image.depth) }, [image]);
  const depthPixels = useMemo(() => image && pixels && depthImageRgba(image.depth, pixels.range), [image, pixels]);
  return (
    <section className="panel camera-panel" data-testid="camera-panel" data-pending={pending ? '1' : '0'} data-camera={image?.camera} data-size={image?.size}
      data-source={view ? sourceText(view.source) : undefined}>
      <h2>What the camera sees</h2>
      {view && view.cameras.length === 0 && (
        <p className="muted small" data-testid="camera-none">Task '{view.task}' names no camera in its scene, so there is no camera image to show.</p>
      )}
      {view && view.cameras.length > 0 && (
        <div className="camera-toolbar">
          <label className="muted">
            camera
            <select value={image?.camera ?? ''} data-testid="camera-picker" onChange={(event) => setChosen(event.target.value)}>
              {view.cameras.map((name) => <option key={name} value={name}>{name}</option>)}
            </select>
          </label>
          <span className="muted small" data-testid="camera-source">{sourceText(view.source)}{image ? ` · ${image.size}×${image.size}` : ''}</span>
        </div>
      )}
      {image && pixels && depthPixels && (
        <div className="camera-images">
          <figure>
            <PixelCanvas rgba={pixels.rgb} size={image.size} label={`${image.camera} camera, colour`} testId="camera-rgb" />
            <figcaption className="muted small">rgb</figcaption>
          </figure>
          <figure>
            <PixelCanvas rgba={depthPixels} size={image.size} label={`${image.camera} camera, depth`} testId="camera-depth" />
            <figcaption className="muted small">depth</figcaption>
          </figure>
        </div>
      )}
      {image && pixels && <DepthLegend range={pixels.range} />}
      {policyImage && <p className="muted small" data-testid="camera-policy-note">{policyImage}</p>}
      {problem && <p className="notice notice-error" role="alert" data-testid="camera-error">{problem}</p>}
    </section>
  );
}
