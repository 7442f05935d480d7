import { memo, startTransition, useEffect, useMemo, useRef, useState } from 'react';
import { latestMetric, METRICS, type MetricKey, type MetricRecord } from '../../core/metrics';
import { formatValue } from '../plot/format';
import { LinePlot, type PlotScales, type PlotSeries } from '../plot/LinePlot';
import { niceTicks } from '../plot/nice-ticks';
import { paddedDomain } from '../plot/scale';
import { useChartFrame } from '../plot/use-chart-frame';
import { chartRows, overlaySeries, overlayXDomain, type ChartRow, type OverlayRun, type XAxisKind } from './chart-data';
import { groupBand, type GroupBand } from './run-groups';
import { chartHeaderOwner } from './header-owner';
import { chartRedrawQueue } from './redraw-queue';

export interface MetricChartProps {
  metric: MetricKey;
  title: string;
  /** The current run's records: drawn when there is no overlay, and the header's newest value. */
  records: readonly MetricRecord[];
  /** Runs chosen in the Runs tab; when set, the chart draws them instead of the current run alone. */
  overlay?: readonly (OverlayRun & { current?: boolean })[];
  /** The overlaid runs grouped by a config key: each group drawn as its mean with a min–max band. */
  groups?: readonly ChartGroup[];
  xAxis: XAxisKind;
  smoothing: number;
  color: string;
}

/** Overlaid runs drawn as one curve: the mean of their smoothed values with a min–max band. */
export interface ChartGroup {
  key: string;
  label: string;
  colour: string;
  runs: readonly OverlayRun[];
}

const CHART_HEIGHT = 118;
const BAND_OPACITY = 0.18;
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
  /** Min–max bands of grouped runs, drawn under their mean curves. */
  bands?: { key: string; colour: string; band: GroupBand }[];
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

/** Each group's mean curve; its band spans the lowest and highest run at each x. */
function groupedPlot(groups: readonly ChartGroup[], metric: MetricKey, xAxis: XAxisKind, smoothing: number): ChartPlot {
  const bands: NonNullable<ChartPlot['bands']> = [];
  for (const group of groups) {
    const band = groupBand(overlaySeries(group.runs, metric, xAxis, smoothing));
    if (band) bands.push({ key: group.key, colour: group.colour, band });
  }
  const series: PlotSeries[] = bands.map(({ key, colour, band }) => {
    const label = groups.find((group) => group.key === key)!.label;
    return { key, label: `${label} (mean of ${band.runs})`, xs: band.xs, ys: band.mean, color: colour, strokeWidth: 1.8, dots: band.xs.length < 3 };
  });
  const xs = bands.flatMap(({ band }) => band.xs);
  const xDomain: [number, number] = xs.length > 0 ? [Math.min(...xs), Math.max(...xs)] : [0, 1];
  const yDomain = paddedDomain(bands.flatMap(({ band }) => [...band.min, ...band.max]));
  return withTicks({ series, xDomain, yDomain, points: xs.length, runs: bands.reduce((sum, { band }) => sum + band.runs, 0), bands });
}

/** The band of each group as a filled area between its min and max, in pixels from the scales. */
function drawBands(bands: NonNullable<ChartPlot['bands']>) {
  return (scales: PlotScales) => bands.map(({ key, colour, band }) => {
    const upper = band.xs.map((x, index) => `${scales.x(x)},${scales.y(band.max[index])}`);
    const lower = band.xs.map((x, index) => `${scales.x(x)},${scales.y(band.min[index])}`).reverse();
    return <path key={`band-${key}`} className="group-band" d={`M${[...upper, ...lower].join('L')}Z`} fill={colour} fillOpacity={BAND_OPACITY} stroke="none" pointerEvents="none" />;
  });
}

/**
 * One scalar metric: the current run (raw values faint, the debiased EMA solid), or the runs
 * selected for comparison in their colours; the current run's newest value in the header.
 */
export const MetricChart = memo(function MetricChart({ metric, title, records, overlay, groups, xAxis, smoothing, color }: MetricChartProps) {
  const [frameRef, frame] = useChartFrame<HTMLElement>();
  const [shown, setShown] = useState({ records, overlay, groups });
  const owner = useRef({});
  useEffect(() => {
    // A chart out of view keeps its old data; it catches up when scrolled back in.
    if (!frame.visible || (shown.records === records && shown.overlay === overlay && shown.groups === groups)) return;
    // A transition render yields to the browser every few milliseconds instead of running as one task.
    return chartRedrawQueue.request(owner.current, () => startTransition(() => setShown({ records, overlay, groups })));
  }, [records, overlay, groups, shown, frame.visible]);
  const rows = useMemo(() => (shown.overlay ? undefined : chartRows(shown.records, metric, xAxis, smoothing)), [shown, metric, xAxis, smoothing]);
  const plot = useMemo(() => {
    if (rows) return singleRunPlot(rows, color);
    return shown.groups ? groupedPlot(shown.groups, metric, xAxis, smoothing) : overlayPlot(shown.overlay ?? [], metric, xAxis, smoothing);
  }, [rows, color, shown.overlay, shown.groups, metric, xAxis, smoothing]);
  const { points, runs, bands, ...lines } = plot;
  const bandLayer = useMemo(() => (bands ? drawBands(bands) : undefined), [bands]);
  const latest = rows ? rows.at(-1)?.raw : latestMetric(shown.records, metric);
  const slug = metric.replace('/', '-');
  const describeX = xAxis === 'env_steps' ? (x: number) => `env steps ${formatValue(x)}` : (x: number) => `${formatValue(x)} s`;
  const empty = rows ? 'no data yet' : 'no selected run logged this';
  const headerOwner = chartHeaderOwner(shown.overlay);
  return (
    <figure ref={frameRef} className="chart" data-testid={`chart-${slug}`} data-points={points} data-series={runs} data-bands={bands?.length} title={METRICS[metric].doc}>
      <figcaption>
        <span className="chart-title">{title}</span>
        {headerOwner && latest !== undefined && (
          <span className="chart-value-owner" data-testid={`latest-owner-${slug}`} title={headerOwner.title}>
            {headerOwner.colour && <span className="plot-swatch" style={{ background: headerOwner.colour }} />}{headerOwner.label}
          </span>
        )}
        <span className="chart-value mono" data-testid={`latest-${slug}`}>{latest !== undefined ? formatValue(latest) : '–'}</span>
      </figcaption>
      {points === 0 || frame.width === 0 ? (
        <div className="chart-empty muted">{points === 0 ? empty : ''}</div>
      ) : (
        <LinePlot width={frame.width} height={CHART_HEIGHT} {...lines} underlay={bandLayer} yAxisWidth={44} describeX={describeX} />
      )}
    </figure>
  );
});
