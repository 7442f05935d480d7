import { useEffect, useMemo, useRef, useState } from 'react';
import { useEpisodeStore } from '../store/episode-slice';
import { tasksHaveSuccess } from '../charts/episode-charts';
import { useRunStore } from '../store/run-slice';
import { errorText, trainerClient } from '../workers/trainer-client';
import { galleryRows, type SuccessFilter } from './gallery-rows';
import { useRowHeldInPlace } from './use-row-held';

const testBuild = import.meta.env.MODE === 'e2e';

/**
 * Recent training and eval episodes (DESIGN.md §1 journey 4), newest first; a click opens
 * the episode in the replay view, and that row then holds still while newer rows arrive above it.
 */
export function EpisodeGallery() {
  const episodes = useEpisodeStore((state) => state.episodes);
  const filter = useEpisodeStore((state) => state.filter);
  const selectedId = useEpisodeStore((state) => state.selectedId);
  const records = useRunStore((state) => state.records);
  const rows = useMemo(() => galleryRows(episodes, filter), [episodes, filter]);
  const successes = useMemo(() => episodes.filter((summary) => summary.success).length, [episodes]);
  const tasks = useRunStore((state) => state.tasks);
  const task = useRunStore((state) => state.config.task);
  // A task without a success rule reports return and length only: no success counts or tags.
  const hasSuccess = tasksHaveSuccess(tasks, [task]);
  const scrollRef = useRef<HTMLDivElement>(null);
  useRowHeldInPlace(scrollRef, selectedId, rows);
  // Held rows mean newer ones can be out of view above: a link goes back to them.
  const [scrolledDown, setScrolledDown] = useState(false);

  // Catch up with episodes announced before this view mounted.
  useEffect(() => {
    trainerClient().listEpisodes()
      .then((stored) => useEpisodeStore.getState().addEpisodes(stored))
      .catch((error: unknown) => console.warn(`episode list unavailable: ${errorText(error)}`));
  }, []);

  // Test builds expose the metric history, so specs can check the tags against it.
  useEffect(() => {
    if (testBuild) (window as unknown as { __flowtuneMetrics?: unknown }).__flowtuneMetrics = records;
  }, [records]);

  const { setFilter, select } = useEpisodeStore.getState();
  return (
    <section className="panel gallery" data-testid="episode-gallery">
      <h2>Episodes</h2>
      <div className="chart-toolbar">
        <label>
          show
          <select value={filter} data-testid="gallery-filter" onChange={(event) => setFilter(event.target.value as SuccessFilter)}>
            <option value="all">all</option>
            <option value="success">success</option>
            <option value="failure">failure</option>
          </select>
        </label>
        <span className="mono" data-testid="gallery-count">{episodes.length} episodes{hasSuccess ? ` · ${successes} successful` : ''}</span>
        {/* Always laid out, shown only when scrolled: appearing must not move the rows it sits above. */}
        <button className="link" data-testid="gallery-newest" title="Newer episodes arrived above the ones in view" disabled={!scrolledDown}
          style={{ visibility: scrolledDown && rows.length > 0 ? 'visible' : 'hidden' }} onClick={() => scrollRef.current?.scrollTo({ top: 0 })}>↑ newest</button>
      </div>
      {rows.length === 0 ? (
        <p className="muted gallery-empty">
          {episodes.length === 0 ? 'Finished training and eval episodes appear here while a run trains.' : `No ${filter === 'success' ? 'successful' : 'failed'} episodes yet.`}
        </p>
      ) : (
        <div className="gallery-scroll" ref={scrollRef} data-testid="gallery-scroll" onScroll={(event) => setScrolledDown(event.currentTarget.scrollTop > 0)}>
          <table className="gallery-table">
            <thead>
              <tr><th>source</th><th>task</th><th className="num">iter</th><th className="num">return</th><th className="num">length</th><th>result</th></tr>
            </thead>
            <tbody>
              {rows.map((summary) => (
                <tr key={summary.id} className={summary.id === selectedId ? 'selected' : undefined} onClick={() => select(summary.id)}
                  data-testid={testBuild ? 'gallery-row' : undefined} data-episode-id={summary.id}
                  data-success={testBuild ? String(summary.success) : undefined} data-iteration={testBuild ? summary.iteration : undefined}
                  data-source={testBuild ? summary.source : undefined}>
                  <td><span className={`source source-${summary.source}`}>{summary.source}</span></td>
                  <td data-obs-type={summary.obsType ?? 'state'}>
                    {summary.task}
                    {summary.obsType === 'pointcloud' && <span className="tag tag-pointcloud" title="The policy saw point clouds">point cloud</span>}
                    {summary.obsType === 'depth_pointcloud' && <span className="tag tag-pointcloud" title="The policy saw point clouds from a depth camera">depth cloud</span>}
                    {(summary.obsType === 'rgb' || summary.obsType === 'rgbd') && <span className="tag tag-camera" title="The policy saw camera images">{summary.obsType}</span>}
                  </td>
                  <td className="num mono">{summary.iteration}</td>
                  <td className="num mono">{summary.episodeReturn.toFixed(2)}</td>
                  <td className="num mono">{summary.length}</td>
                  <td>{tasksHaveSuccess(tasks, [summary.task])
                    ? <span className={`tag ${summary.success ? 'tag-success' : 'tag-failure'}`}>{summary.success ? 'success' : 'failure'}</span>
                    : <span className="muted" title="This task has no success rule">–</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
