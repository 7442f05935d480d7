import { useEffect, useRef, useState } from 'react';
import type * as THREE from 'three';
import type { ChainPaths } from '../../protocol/trainer-api';
import { useRunStore } from '../store/run-slice';
import { trainerClient } from '../workers/trainer-client';
import { useLatestRequest } from '../workers/use-latest-request';
import { buildPathLines, disposePathLines } from './path-lines';
import { useThreeCanvas } from './use-three-canvas';

const CHAIN_COUNT = 16;
/** The chain view's seed, so the paths belong to the chains it draws. */
const CHAIN_SEED = 0;

function exposeForTests(paths: ChainPaths): void {
  if (import.meta.env.MODE !== 'e2e') return;
  (window as unknown as { __flowtuneChainPaths?: unknown }).__flowtuneChainPaths = {
    count: paths.count, horizon: paths.horizon, nActionSteps: paths.nActionSteps, envIndex: paths.envIndex,
    paths: Array.from(paths.paths), odePath: Array.from(paths.odePath),
  };
}

/**
 * The chain view in space (DESIGN.md §1 journey 4): the TCP paths the sampled chunks imply under
 * ee_delta_pos, drawn in the env's current state. Re-sampled with the chain view's triggers.
 */
export function ChainPathsView() {
  const config = useRunStore((state) => state.config);
  const model = useRunStore((state) => state.model);
  const iteration = useRunStore((state) => state.status?.iteration ?? 0);
  const phase = useRunStore((state) => state.status?.phase ?? 'idle');
  const hasRun = phase !== 'idle' && phase !== 'starting';
  const { canvasRef, problem: webglProblem, show, follow, taskScene } = useThreeCanvas();
  const [envIndex, setEnvIndex] = useState(0);
  const linesRef = useRef<THREE.Group | undefined>(undefined);
  const noiseKey = JSON.stringify(config.noise);

  const { value: result, problem, pending } = useLatestRequest(
    hasRun ? JSON.stringify([noiseKey, model, iteration, envIndex]) : undefined,
    () => trainerClient().chainPaths({ envIndex, count: CHAIN_COUNT, seed: CHAIN_SEED }),
    exposeForTests,
  );

  useEffect(() => {
    if (!result) return;
    const start: [number, number, number] = [result.odePath[0], result.odePath[1], result.odePath[2]];
    const previousLines = linesRef.current;
    const lines = buildPathLines(result.paths, result.odePath, result.count, result.horizon, result.nActionSteps);
    linesRef.current = lines;
    // The scene is built once per task; later samples move its meshes, swap the lines and follow the TCP.
    const { handle, fresh } = taskScene(result.visual);
    handle.setFrame(result.poses, 0);
    previousLines?.removeFromParent();
    handle.scene.add(lines);
    if (fresh) {
      // Frame the paths: look at their start from the task camera's direction, closer in.
      const [cx, cy, cz] = result.visual.camera.position;
      handle.camera.position.set(start[0] + 0.3 * (cx - start[0]), start[1] + 0.3 * (cy - start[1]), start[2] + 0.3 * (cz - start[2]));
      handle.camera.lookAt(...start);
      show(handle, start);
    } else {
      follow(start);
    }
    // After the draw, so the new lines reuse the old lines' compiled shader programs.
    if (previousLines) disposePathLines(previousLines);
  }, [result, taskScene, show, follow]);

  useEffect(() => () => {
    if (linesRef.current) disposePathLines(linesRef.current);
  }, []);

  return (
    <section className="panel chain-paths" data-testid="chain-paths" data-pending={pending ? '1' : '0'} data-chains={result?.count}>
      <h2>TCP paths of the sampled chunks</h2>
      <div className="chart-toolbar">
        <label>
          env
          <input type="number" min={0} max={config.num_envs - 1} value={envIndex} style={{ width: 48 }} data-testid="chain-paths-env"
            onChange={(event) => setEnvIndex(Math.max(0, Math.min(config.num_envs - 1, Number(event.target.value) || 0)))} />
        </label>
        <span className="muted small">
          <span className="path-key path-key-chain" /> chains · <span className="path-key path-key-ode" /> ODE chunk · solid: executed steps, faint: the rest of the horizon
        </span>
      </div>
      <div className="replay-stage">
        <canvas ref={canvasRef} className="replay-canvas" data-testid="chain-paths-canvas" />
        {!result && <p className="replay-empty muted">{hasRun ? 'sampling…' : 'Press Train or Step: the paths start from a rollout observation.'}</p>}
      </div>
      {(webglProblem ?? problem) && <p className="notice notice-error" role="alert" data-testid="chain-paths-error">{webglProblem ?? problem}</p>}
      {result && !result.objectFromObservation && <p className="muted small">This observation has no cube pose (pointcloud mode): the cube is drawn at its home pose.</p>}
    </section>
  );
}
