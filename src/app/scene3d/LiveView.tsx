import { useEffect, useState } from 'react';
import { formatCount } from '../plot/format';
import type { LiveFrame } from '../../protocol/trainer-api';
import { useRunStore } from '../store/run-slice';
import { errorText, trainerClient } from '../workers/trainer-client';
import { useThreeCanvas } from './use-three-canvas';

/** Milliseconds between polls; the next poll starts only after the previous reply, so at most one is in flight. */
export const LIVE_POLL_MS = 500;

/**
 * Training env `envIndex` as it trains (DESIGN.md §1 journey 4 "Live view"), off by default and
 * throttled to one small request per LIVE_POLL_MS.
 */
export function LiveView() {
  const phase = useRunStore((state) => state.status?.phase ?? 'idle');
  const numEnvs = useRunStore((state) => state.config.num_envs);
  const { canvasRef, problem: webglProblem, show, taskScene, draw } = useThreeCanvas();
  const [enabled, setEnabled] = useState(false);
  const [envIndex, setEnvIndex] = useState(0);
  const [frame, setFrame] = useState<LiveFrame>();
  const [problem, setProblem] = useState<string>();
  const [frames, setFrames] = useState(0);
  const running = phase === 'running';

  // Poll while enabled and running; one more poll when the run stops, so the view shows where it paused.
  useEffect(() => {
    if (!enabled) return;
    let active = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = () => {
      trainerClient().liveFrame(envIndex)
        .then((next) => {
          if (!active) return;
          if (next) {
            setFrame(next);
            setFrames((count) => count + 1);
          }
          setProblem(undefined);
        })
        .catch((error: unknown) => {
          if (active) setProblem(errorText(error));
        })
        .finally(() => {
          if (active && running) timer = setTimeout(poll, LIVE_POLL_MS);
        });
    };
    poll();
    return () => {
      active = false;
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [enabled, running, envIndex]);

  useEffect(() => {
    if (!frame) return;
    // The scene is built once per task; each frame only moves its meshes.
    const { handle, fresh } = taskScene(frame.visual);
    handle.setFrame(frame.poses, 0);
    if (fresh) show(handle, frame.visual.camera.target);
    else draw();
  }, [frame, taskScene, show, draw]);

  return (
    <section className="panel live-view" data-testid="live-view" data-frames={frames}>
      <h2>Live view</h2>
      <div className="chart-toolbar">
        <label>
          <input type="checkbox" checked={enabled} data-testid="live-toggle" onChange={(event) => setEnabled(event.target.checked)} />
          on
        </label>
        <label>
          env
          <input type="number" min={0} max={numEnvs - 1} value={envIndex} style={{ width: 48 }} data-testid="live-env"
            onChange={(event) => setEnvIndex(Math.max(0, Math.min(numEnvs - 1, Number(event.target.value) || 0)))} />
        </label>
        <span className="mono small" data-testid="live-meta">
          {frame ? `iteration ${frame.iteration} · ${formatCount(frame.envSteps)} env steps` : `polls every ${LIVE_POLL_MS} ms while training`}
        </span>
      </div>
      <div className="replay-stage">
        <canvas ref={canvasRef} className="replay-canvas" data-testid="live-canvas" />
        {!frame && <p className="replay-empty muted">{enabled ? 'waiting for a rollout observation…' : 'Off: tick the box to watch the env train.'}</p>}
      </div>
      {(webglProblem ?? problem) && <p className="notice notice-error" role="alert">{webglProblem ?? problem}</p>}
      {frame && !frame.objectFromObservation && <p className="muted small" data-testid="live-note">This observation has no cube pose (point cloud): the cube is drawn at its home pose.</p>}
    </section>
  );
}
