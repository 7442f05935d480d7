import { formatReturn } from '../../core/video/caption';
import { tasksHaveSuccess } from '../charts/episode-charts';
import { useRunStore } from '../store/run-slice';
import { useVideoStore, type VideoEntry } from '../store/video-slice';
import './video-list.css';

/** Test builds tag each video with its frame count, rate and episode length. */
const testHooks = import.meta.env.MODE === 'e2e';

function hooks(name: string, video?: VideoEntry): Record<string, string | number> {
  if (!testHooks) return {};
  return video
    ? { 'data-testid': name, 'data-frames': video.frames, 'data-fps': video.fps, 'data-length': video.summary.length, 'data-iteration': video.summary.iteration, 'data-success': String(video.summary.success), 'data-return': video.summary.episodeReturn }
    : { 'data-testid': name };
}

function VideoCard({ video }: { video: VideoEntry }) {
  const { summary } = video;
  const hasSuccess = useRunStore((state) => tasksHaveSuccess(state.tasks, [summary.task]));
  return (
    <figure className="video-card" {...hooks('video-entry', video)}>
      <video className="video-player" src={video.url} controls preload="metadata" muted playsInline {...hooks('video', video)} />
      <figcaption className="video-caption">
        <div className="video-title">
          {hasSuccess && <span className={`tag ${summary.success ? 'tag-success' : 'tag-failure'}`}>{summary.success ? 'success' : 'failure'}</span>}
          <span>{summary.task} · it {summary.iteration} · ep {summary.envIndex}</span>
          <span className="muted">return {formatReturn(summary.episodeReturn)}</span>
          <a className="video-download" href={video.url} download={video.fileName} {...hooks('video-download')}>Download</a>
        </div>
        <div className="muted small mono" title={video.caption}>
          {summary.length} steps · {video.frames} frames @ {video.fps} fps · {video.durationSeconds.toFixed(2)} s · {video.encoder} {video.codec} · {(video.sizeBytes / 1024).toFixed(0)} KB · rendered in {video.renderSeconds.toFixed(1)} s
        </div>
      </figcaption>
    </figure>
  );
}

/** Eval rollout videos recorded during the run, newest first, each playable and downloadable. */
export function VideoList() {
  const videos = useVideoStore((state) => state.videos);
  const pending = useVideoStore((state) => state.pending);
  const error = useVideoStore((state) => state.error);
  const video = useRunStore((state) => state.config.video);
  const evalEvery = useRunStore((state) => state.config.eval.every);
  const schedule = video.episodes === 0 || evalEvery === 0
    ? 'off (set eval.every and video.episodes)'
    : `${video.episodes} eval episode${video.episodes === 1 ? '' : 's'} ${video.every === 0 ? 'at every evaluation' : `every ${video.every} iterations`}`;
  return (
    <section className="panel video-list" {...hooks('video-list')}>
      <div className="video-head">
        <h2>Rollout videos</h2>
        <span className="muted small">{schedule}</span>
        {pending > 0 && <span className="video-pending small" {...hooks('video-pending')}>rendering {pending}…</span>}
      </div>
      {error && <p className="notice notice-error">{error}</p>}
      {videos.length === 0
        ? <p className="muted small video-empty">No videos yet: they are rendered from the eval episodes after each recorded evaluation.</p>
        : <div className="video-grid">{videos.map((entry) => <VideoCard key={entry.id} video={entry} />)}</div>}
    </section>
  );
}
