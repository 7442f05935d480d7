import { memo, startTransition, useEffect, useMemo, useRef, useState } from 'react';
import { latestMetric, METRICS, type MetricKey, type MetricRecord } from '../../core/metrics';
import { formatValue } from '../plot/format';
import { LinePlot, type PlotSeries } from '../plot/LinePlot';
import { niceTicks } from '../plot/nice-ticks';
import { paddedDomain } from '../plot/scale';
import { useChartFrame } from '../plot/use-chart-frame';
import { chartRows, overlaySeries, overlayXDomain, type ChartRow, type OverlayRun, type XAxisKind } from './chart-data';
import { chartHeaderOwner } from './header-owner';
import { chartRedrawQueue } from './redraw-queue';

export interface MetricChartProps {
  metric: MetricKey;
  title: string;
  /** The current run's records: drawn when there is no overlay, and the header's newest value. */
  records: readonly MetricRecord[];
  /** Runs chosen in the Runs tab; when set, the chart draws them instead of the current run alone. */
  overlay?: readonly (OverlayRun & { current?: boolean })[];
  xAxis: XAxisKind;
  smoothing: number;
  color: string;
}

const CHART_HEIGHT = 118;
const TICK_COUNT = 4;

interface ChartPlot {
  xs?: number[];
  series: PlotSeries[];
  xDomain: [number, number];
  yDomain: [number, number];
  xTicks: number[];
  yTicks: number[];
  /** Rows drawn (each run's smoothed curve counts once). */
  points: number;
  /** Runs drawn. */
  runs: number;
}

function withTicks(plot: Omit<ChartPlot, 'xTicks' | 'yTicks'>): ChartPlot {
  return { ...plot, xTicks: niceTicks(plot.xDomain[0], plot.xDomain[1], TICK_COUNT), yTicks: niceTicks(plot.yDomain[0], plot.yDomain[1], TICK_COUNT) };
}

/** The current run alone: raw values faint, the debiased EMA solid. */
function singleRunPlot(rows: readonly ChartRow[], color: string): ChartPlot {
  const xs = rows.map((row) => row.x);
  const series: PlotSeries[] = [
    { key: 'raw', label: 'raw', ys: rows.map((row) => row.raw), color, opacity: 0.25 },
    { key: 'smooth', label: 'smoothed', ys: rows.map((row) => row.smooth), color, strokeWidth: 1.6, dots: rows.length < 3 },
  ];
  const xDomain: [number, number] = [xs[0] ?? 0, xs.at(-1) ?? 1];
  const yDomain = paddedDomain([...series[0].ys, ...series[1].ys]);
  return withTicks({ xs, series, xDomain, yDomain, points: rows.length, runs: rows.length > 0 ? 1 : 0 });
}

/** Several runs, each on its own x values: only the smoothed curves, so overlapping runs stay legible. */
function overlayPlot(overlay: readonly OverlayRun[], metric: MetricKey, xAxis: XAxisKind, smoothing: number): ChartPlot {
  const runs = overlaySeries(overlay, metric, xAxis, smoothing);
  const series: PlotSeries[] = runs.map(({ runId, name, colour, rows }) => ({
    key: runId, label: name, xs: rows.map((row) => row.x), ys: rows.map((row) => row.smooth), color: colour, strokeWidth: 1.6, dots: rows.length < 3,
  }));
  const yDomain = paddedDomain(series.flatMap((entry) => entry.ys));
  const points = runs.reduce((sum, run) => sum + run.rows.length, 0);
  return withTicks({ series, xDomain: overlayXDomain(runs), yDomain, points, runs: runs.length });
}

/**
 * One scalar metric: the current run (raw values faint, the debiased EMA solid), or the runs
 * selected for comparison in their colours; the current run's newest value in the header.
 */
export const MetricChart = memo(function MetricChart({ metric, title, records, overlay, xAxis, smoothing, color }: MetricChartProps) {
  const [frameRef, frame] = useChartFrame<HTMLElement>();
  const [shown, setShown] = useState({ records, overlay });
  const owner = useRef({});
  useEffect(() => {
    // A chart out of view keeps its old data; it catches up when scrolled back in.
    if (!frame.visible || (shown.records === records && shown.overlay === overlay)) return;
    // A transition render yields to the browser every few milliseconds instead of running as one task.
    return chartRedrawQueue.request(owner.current, () => startTransition(() => setShown({ records, overlay })));
  }, [records, overlay, shown, frame.visible]);
  const rows = useMemo(() => (shown.overlay ? undefined : chartRows(shown.records, metric, xAxis, smoothing)), [shown, metric, xAxis, smoothing]);
  const plot = useMemo(
    () => (rows ? singleRunPlot(rows, color) : overlayPlot(shown.overlay ?? [], metric, xAxis, smoothing)),
    [rows, color, shown.overlay, metric, xAxis, smoothing],
  );
  const { points, runs, ...lines } = plot;
  const latest = rows ? rows.at(-1)?.raw : latestMetric(shown.records, metric);
  const slug = metric.replace('/', '-');
  const describeX = xAxis === 'env_steps' ? (x: number) => `env steps ${formatValue(x)}` : (x: number) => `${formatValue(x)} s`;
  const empty = rows ? 'no data yet' : 'no selected run logged this';
  const headerOwner = chartHeaderOwner(shown.overlay);
  return (
    <figure ref={frameRef} className="chart" data-testid={`chart-${slug}`} data-points={points} data-series={runs} title={METRICS[metric].doc}>
      <figcaption>
        <span className="chart-title">{title}</span>
        {headerOwner && (
          <span className="chart-value-owner" data-testid={`latest-owner-${slug}`} title={headerOwner.title}>
            {headerOwner.colour && <span className="plot-swatch" style={{ background: headerOwner.colour }} />}{headerOwner.label}
          </span>
        )}
        <span className="chart-value mono" data-testid={`latest-${slug}`}>{latest !== undefined ? formatValue(latest) : '–'}</span>
      </figcaption>
      {points === 0 || frame.width === 0 ? (
        <div className="chart-empty muted">{points === 0 ? empty : ''}</div>
      ) : (
        <LinePlot width={frame.width} height={CHART_HEIGHT} {...lines} yAxisWidth={44} describeX={describeX} />
      )}
    </figure>
  );
});
