import { useMemo, useState } from 'react';
import { diffConfigs, type ConfigKey, type RunConfig } from '../../core/config';
import { tasksHaveSuccess } from '../charts/episode-charts';
import { formatValue } from '../plot/format';
import { LinePlot, type PlotSeries } from '../plot/LinePlot';
import { niceTicks } from '../plot/nice-ticks';
import { paddedDomain } from '../plot/scale';
import { useChartFrame } from '../plot/use-chart-frame';
import { useRunStore } from '../store/run-slice';
import { scatterKeys, scatterPoints, type ScatterPoint } from './sweep-scatter';
import { useSelectedRuns } from './use-selected-runs';

const PLOT_HEIGHT = 180;

/** The dots, in a frame that is always in the page while it is mounted, so it is measured. */
function ScatterPlot({ points, xLabel }: { points: readonly ScatterPoint[]; xLabel: string }) {
  const [frameRef, frame] = useChartFrame<HTMLDivElement>();
  const plot = useMemo(() => {
    const series: PlotSeries[] = points.map((point) => ({ key: point.id, label: point.name, xs: [point.x], ys: [point.y], color: point.colour, dots: true }));
    const xDomain = paddedDomain(points.map((point) => point.x));
    const yDomain = paddedDomain(points.map((point) => point.y));
    return { series, xDomain, yDomain, xTicks: niceTicks(xDomain[0], xDomain[1], 4), yTicks: niceTicks(yDomain[0], yDomain[1], 4) };
  }, [points]);
  return (
    <div ref={frameRef}>
      {points.length === 0 ? <p className="muted">No ticked run has evaluated yet.</p>
        : frame.width > 0 && <LinePlot width={frame.width} height={PLOT_HEIGHT} {...plot} yAxisWidth={44} describeX={(x) => `${xLabel} ${formatValue(x)}`} />}
    </div>
  );
}

/** The ticked runs as points: a numeric key they differ on against their final eval result, a dot per run in its colour. */
export function SweepScatter() {
  const runs = useSelectedRuns(false);
  const tasks = useRunStore((state) => state.tasks);
  const keys = useMemo(() => scatterKeys(diffConfigs(runs.map((run) => run.config).filter((config): config is RunConfig => config !== undefined)).map((row) => row.key)), [runs]);
  const [chosen, setChosen] = useState<ConfigKey>();
  const key = chosen !== undefined && keys.includes(chosen) ? chosen : keys[0];
  const hasSuccess = tasksHaveSuccess(tasks, runs.map((run) => run.config?.task ?? ''));
  const metric = hasSuccess ? 'eval/success_rate' : 'eval/episode_return';
  const points = useMemo(() => (key ? scatterPoints(runs, key, metric) : []), [runs, key, metric]);
  if (runs.length < 2) return null;
  return (
    <section className="panel" data-testid="sweep-scatter" data-points={points.length}>
      <h2>Final {hasSuccess ? 'eval success' : 'eval return'} against a setting</h2>
      {keys.length === 0 ? (
        <p className="muted">The ticked runs differ on no numeric setting.</p>
      ) : (
        <>
          <div className="chart-toolbar">
            <label>
              x axis
              <select value={key} data-testid="scatter-key" onChange={(event) => setChosen(event.target.value as ConfigKey)}>
                {keys.map((entry) => <option key={entry} value={entry}>{entry}</option>)}
              </select>
            </label>
            <span className="muted small">a dot per ticked run that evaluated, in its colour</span>
          </div>
          <ScatterPlot points={points} xLabel={key!} />
        </>
      )}
    </section>
  );
}
