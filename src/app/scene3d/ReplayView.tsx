import { useEffect, useRef, useState } from 'react';
import type { EpisodeReplay } from '../../protocol/trainer-api';
import { episodeCaption } from '../gallery/gallery-rows';
import { useChainSource } from '../inspect/chain-source';
import { tasksHaveSuccess } from '../charts/episode-charts';
import { useEpisodeStore } from '../store/episode-slice';
import { useRunStore } from '../store/run-slice';
import { flowOnlyText } from '../policy/flow-only';
import { usePolicyKind } from '../policy/use-policy-kind';
import { errorText, trainerClient } from '../workers/trainer-client';
import { buildThreeScene } from '../../scene3d/three-scene';
import { useThreeCanvas } from './use-three-canvas';

export const REPLAY_SPEEDS = [0.25, 0.5, 1, 2, 4] as const;

const testIds = import.meta.env.MODE === 'e2e';

/**
 * 3D replay of a recorded episode (DESIGN.md §1 journey 4): the trainer worker computes the
 * geom poses from the episode's qpos; this view only renders them with three.js.
 */
export function ReplayView() {
  const selectedId = useEpisodeStore((state) => state.selectedId);
  const showEpisodeStep = useChainSource((state) => state.showEpisodeStep);
  // Another family has no chain to sample at a frame.
  const noChains = flowOnlyText(usePolicyKind(), 'chains');
  const { canvasRef, problem: webglProblem, show, current, draw, follow } = useThreeCanvas();
  const [replay, setReplay] = useState<EpisodeReplay>();
  const hasSuccess = useRunStore((state) => tasksHaveSuccess(state.tasks, replay ? [replay.summary.task] : []) || !replay);
  const [frame, setFrame] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState(1);
  const [loading, setLoading] = useState(false);
  const [fetchProblem, setFetchProblem] = useState<string>();
  const problem = webglProblem ?? fetchProblem;
  const frameRef = useRef(0);
  frameRef.current = frame;
  const setReplayStep = useEpisodeStore((state) => state.setReplayStep);
  // The camera view renders the frame on screen; it waits until the replay's episode has loaded.
  useEffect(() => {
    if (replay && replay.summary.id === selectedId) setReplayStep(frame);
  }, [replay, selectedId, frame, setReplayStep]);

  // Fetch the poses of the selected episode.
  useEffect(() => {
    if (!selectedId) return;
    let active = true;
    setLoading(true);
    setPlaying(false);
    trainerClient().episodeReplay(selectedId)
      .then((next) => {
        if (!active) return;
        setReplay(next);
        setFrame(0);
        setFetchProblem(undefined);
      })
      .catch((error: unknown) => {
        if (active) setFetchProblem(errorText(error));
      })
      .finally(() => {
        if (active) setLoading(false);
      });
    return () => {
      active = false;
    };
  }, [selectedId]);

  // A new scene for each replay, starting at the task's camera.
  useEffect(() => {
    if (!replay) return;
    const handle = buildThreeScene(replay.visual);
    handle.setFrame(replay.poses, frameRef.current);
    show(handle, replay.visual.camera.target);
  }, [replay, show]);

  useEffect(() => {
    const handle = current();
    if (!replay || !handle) return;
    handle.setFrame(replay.poses, frame);
    if (replay.visual.trackGeom !== undefined) follow(handle.trackedTarget(replay.poses, frame));
    else draw();
  }, [replay, frame, current, draw, follow]);

  // Playback at fps × speed from the frame where play was pressed.
  useEffect(() => {
    if (!playing || !replay) return;
    const lastFrame = replay.poses.frames - 1;
    const startFrame = frameRef.current >= lastFrame ? 0 : frameRef.current;
    const startTime = performance.now();
    let request = 0;
    const tick = (now: number) => {
      const next = Math.min(lastFrame, startFrame + Math.floor(((now - startTime) / 1000) * replay.visual.fps * speed));
      setFrame(next);
      if (next >= lastFrame) setPlaying(false);
      else request = requestAnimationFrame(tick);
    };
    request = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(request);
  }, [playing, speed, replay]);

  const frames = replay?.poses.frames ?? 0;
  return (
    <section className="panel replay-view" data-testid="replay-view" data-loading={loading ? '1' : '0'} data-episode={replay?.summary.id}>
      <h2>Replay</h2>
      <div className="replay-stage">
        <canvas ref={canvasRef} className="replay-canvas" data-testid={testIds ? 'replay-canvas' : undefined} />
        {!replay && !loading && <p className="replay-empty muted">Pick an episode in the gallery to replay it.</p>}
      </div>
      {problem && <p className="notice notice-error" role="alert" data-testid="replay-error">{problem}</p>}
      <div className="replay-controls">
        <button className="replay-play" disabled={!replay} data-testid={testIds ? 'replay-play' : undefined} onClick={() => setPlaying((value) => !value)}>
          {playing ? 'Pause' : 'Play'}
        </button>
        <input type="range" className="replay-scrub" min={0} max={Math.max(0, frames - 1)} step={1} value={frame} disabled={!replay}
          aria-label="frame" data-testid={testIds ? 'replay-scrub' : undefined}
          onChange={(event) => {
            setPlaying(false);
            setFrame(Number(event.target.value));
          }} />
        <span className="mono replay-frame" data-testid="replay-frame">{replay ? `${frame} / ${frames - 1}` : '–'}</span>
        <button className="replay-chains" disabled={!replay || noChains !== undefined} data-testid="replay-chains"
          title={noChains ?? 'Sample the denoising chains from the observation at this frame'}
          onClick={() => {
            if (!replay) return;
            setPlaying(false);
            showEpisodeStep(replay.summary.id, frame);
            document.querySelector('[data-testid="chain-view"]')?.scrollIntoView({ block: 'start' });
          }}>
          Chains at this step
        </button>
        <label className="muted">
          speed
          <select value={speed} data-testid="replay-speed" onChange={(event) => setSpeed(Number(event.target.value))}>
            {REPLAY_SPEEDS.map((value) => <option key={value} value={value}>{value}×</option>)}
          </select>
        </label>
      </div>
      {replay && (
        <p className="replay-caption" data-testid="replay-caption">
          <span className={`tag ${!hasSuccess ? '' : replay.summary.success ? 'tag-success' : 'tag-failure'}`}>{replay.summary.source}</span>
          {episodeCaption(replay.summary, hasSuccess)}
          <span className="muted"> · {replay.summary.length} steps · env {replay.summary.envIndex} · seed {replay.summary.seed}</span>
        </p>
      )}
    </section>
  );
}
