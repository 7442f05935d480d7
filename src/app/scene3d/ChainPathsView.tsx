import { useEffect, useRef, useState } from 'react';
import type * as THREE from 'three';
import type { ChainPaths } from '../../protocol/trainer-api';
import { chainRequest, chainSourceLabel, useChainSource } from '../inspect/chain-source';
import { useEpisodeStore } from '../store/episode-slice';
import { useRunStore } from '../store/run-slice';
import { flowOnlyText } from '../policy/flow-only';
import { FlowOnlyPanel } from '../policy/FlowOnlyPanel';
import { usePolicyKind } from '../policy/use-policy-kind';
import { trainerClient } from '../workers/trainer-client';
import { useLatestRequest } from '../workers/use-latest-request';
import { buildPathLines, disposePathLines } from './path-lines';
import { framePoints, type PathFraming, type Vec3 } from './frame-paths';
import { buildPointCloud, cloudCentroid, disposePointCloud, SHARE_RAMP } from './point-cloud-points';
import { useThreeCanvas } from './use-three-canvas';

const CHAIN_COUNT = 16;
/** The chain view's seed, so the paths belong to the chains it draws. */
const CHAIN_SEED = 0;

function exposeForTests(paths: ChainPaths): void {
  if (import.meta.env.MODE !== 'e2e') return;
  (window as unknown as { __flowtuneChainPaths?: unknown }).__flowtuneChainPaths = {
    count: paths.count, horizon: paths.horizon, nActionSteps: paths.nActionSteps, envIndex: paths.envIndex,
    paths: Array.from(paths.paths), odePath: Array.from(paths.odePath), obsSource: paths.obsSource, episode: paths.episode, unposedGeoms: paths.unposedGeoms,
    pointCloud: paths.pointCloud && { points: Array.from(paths.pointCloud.points), shares: Array.from(paths.pointCloud.shares) },
  };
}

/** Vertical field of view of the task scene's camera (src/scene3d/three-scene.ts). */
const CAMERA_FOVY_DEG = 40;

/**
 * The camera that frames the paths (and, with a point cloud, the cloud's centre, so the object's
 * points show too), seen from the task camera's direction.
 */
function pathFraming(paths: ChainPaths, aspect: number): PathFraming {
  const { position, target } = paths.visual.camera;
  const from = [0, 1, 2].map((axis) => position[axis] - target[axis]) as Vec3;
  const framed = [paths.paths, paths.odePath];
  if (paths.pointCloud) framed.push(Float32Array.from(cloudCentroid(paths.pointCloud.points)));
  return framePoints(framed, from, CAMERA_FOVY_DEG, aspect);
}

/** What the scene leaves out, so the note under it stays true. */
function unposedNote(paths: ChainPaths): string | undefined {
  if (paths.unposedGeoms.length === 0) return undefined;
  return paths.pointCloud
    ? 'The point-cloud observation gives no object pose: the objects are left out, and the points show where they are.'
    : 'This observation gives no object pose: the objects are left out.';
}

function PointCloudLegend({ count }: { count: number }) {
  return (
    <p className="muted small" data-testid="point-cloud-overlay" data-points={count}>
      <span className="share-ramp" style={{ background: `linear-gradient(to right, ${SHARE_RAMP.join(', ')})` }} />
      {' '}{count} points the policy sees, coloured by how many max-pool channels each wins (grey: none, orange: the most)
    </p>
  );
}

const PANEL_TITLE = 'TCP paths of the sampled chunks';

/** The chain view in space for a flow or diffusion policy; a Gaussian policy samples no chunks to draw. */
export function ChainPathsView() {
  const reason = flowOnlyText(usePolicyKind(), 'chain-paths');
  return reason ? <FlowOnlyPanel title={PANEL_TITLE} testId="chain-paths" text={reason} /> : <FlowChainPathsView />;
}

/**
 * The chain view in space (DESIGN.md §1 journey 4): the end-effector paths the sampled chunks imply
 * (for controls whose task's render hint gives an actionPath), drawn in the state of the chain view's observation (an env's live state, or the
 * episode step it shows), with a point-cloud policy's points. Re-sampled with the chain view's triggers.
 */
function FlowChainPathsView() {
  const config = useRunStore((state) => state.config);
  const model = useRunStore((state) => state.model);
  const iteration = useRunStore((state) => state.status?.iteration ?? 0);
  const phase = useRunStore((state) => state.status?.phase ?? 'idle');
  const hasRun = phase !== 'idle' && phase !== 'starting';
  const { canvasRef, problem: webglProblem, show, follow, taskScene } = useThreeCanvas();
  const [envIndex, setEnvIndex] = useState(0);
  const linesRef = useRef<THREE.Group | undefined>(undefined);
  const cloudRef = useRef<THREE.Points | undefined>(undefined);
  const deterministicChunk = useRunStore((state) => (state.config.policy.kind !== 'diffusion' ? 'ODE chunk' : state.config.policy.ddim_steps > 0 ? 'DDIM chunk' : 'DDPM mean chunk'));
  // The live sampling settings (noise, a diffusion policy's std floor) re-sample, as in the chain view.
  const noiseKey = JSON.stringify([config.noise, config.dppo.min_sampling_std]);
  // The chain view's observation: the ChainView falls back to the live env when the episode is evicted.
  const source = useChainSource((state) => state.source);
  const episodeGone = useEpisodeStore((state) => source.kind === 'episode' && !state.episodes.some((episode) => episode.id === source.id));

  const { value: result, problem, pending } = useLatestRequest(
    hasRun && !episodeGone ? JSON.stringify([noiseKey, model, iteration, envIndex, source]) : undefined,
    () => trainerClient().chainPaths(chainRequest(source, envIndex, CHAIN_COUNT, CHAIN_SEED)),
    exposeForTests,
  );

  useEffect(() => {
    if (!result) return;
    const previousLines = linesRef.current;
    const previousCloud = cloudRef.current;
    const lines = buildPathLines(result.paths, result.odePath, result.count, result.horizon, result.nActionSteps);
    linesRef.current = lines;
    const cloud = result.pointCloud && buildPointCloud(result.pointCloud.points, result.pointCloud.shares);
    cloudRef.current = cloud;
    // The scene is built once per task; later samples move its meshes, swap the lines and points and follow the TCP.
    const { handle, fresh } = taskScene(result.visual);
    handle.setFrame(result.poses, 0);
    handle.setHidden(result.unposedGeoms);
    const canvas = canvasRef.current;
    const framing = pathFraming(result, canvas && canvas.clientHeight > 0 ? canvas.clientWidth / canvas.clientHeight : 4 / 3);
    previousLines?.removeFromParent();
    previousCloud?.removeFromParent();
    handle.scene.add(lines);
    if (cloud) handle.scene.add(cloud);
    if (fresh) {
      handle.camera.position.set(...framing.position);
      handle.camera.lookAt(...framing.target);
      show(handle, framing.target);
    } else {
      // Later samples keep the user's view angle and distance, centred on the new paths.
      follow(framing.target);
    }
    // After the draw, so the new lines and points reuse the old ones' compiled shader programs.
    if (previousLines) disposePathLines(previousLines);
    if (previousCloud) disposePointCloud(previousCloud);
  }, [result, taskScene, show, follow, canvasRef]);

  useEffect(() => () => {
    if (linesRef.current) disposePathLines(linesRef.current);
    if (cloudRef.current) disposePointCloud(cloudRef.current);
  }, []);
  const note = result && unposedNote(result);

  return (
    <section className="panel chain-paths" data-testid="chain-paths" data-pending={pending ? '1' : '0'} data-chains={result?.count} data-source={result?.obsSource}>
      <h2>{PANEL_TITLE}</h2>
      <div className="chart-toolbar">
        <label>
          env
          <input type="number" min={0} max={config.num_envs - 1} value={envIndex} style={{ width: 48 }} data-testid="chain-paths-env" disabled={source.kind === 'episode'}
            onChange={(event) => setEnvIndex(Math.max(0, Math.min(config.num_envs - 1, Number(event.target.value) || 0)))} />
        </label>
        {result && <span>observation: <strong data-testid="chain-paths-source">{chainSourceLabel(result)}</strong></span>}
        <span className="muted small">
          <span className="path-key path-key-chain" /> chains · <span className="path-key path-key-ode" /> {deterministicChunk} · solid: executed steps, faint: the rest of the horizon
        </span>
      </div>
      <div className="replay-stage">
        <canvas ref={canvasRef} className="replay-canvas" data-testid="chain-paths-canvas" />
        {result && <span className="camera-hint small" data-testid="camera-hint">drag to orbit · wheel to zoom · right-drag to pan</span>}
        {!result && <p className="replay-empty muted">{hasRun ? 'sampling…' : 'Press Train or Step: the paths start from a rollout observation.'}</p>}
      </div>
      {(webglProblem ?? problem) && <p className="notice notice-error" role="alert" data-testid="chain-paths-error">{webglProblem ?? problem}</p>}
      {result?.pointCloud && <PointCloudLegend count={result.pointCloud.shares.length} />}
      {note && <p className="muted small" data-testid="chain-paths-note">{note}</p>}
    </section>
  );
}
