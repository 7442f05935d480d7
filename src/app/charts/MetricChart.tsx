import { memo, startTransition, useEffect, useMemo, useRef, useState } from 'react';
import { METRICS, type MetricKey, type MetricRecord } from '../../core/metrics';
import { formatValue } from '../plot/format';
import { LinePlot, type PlotSeries } from '../plot/LinePlot';
import { niceTicks } from '../plot/nice-ticks';
import { paddedDomain } from '../plot/scale';
import { useChartFrame } from '../plot/use-chart-frame';
import { chartRows, type XAxisKind } from './chart-data';
import { chartRedrawQueue } from './redraw-queue';

export interface MetricChartProps {
  metric: MetricKey;
  title: string;
  records: readonly MetricRecord[];
  xAxis: XAxisKind;
  smoothing: number;
  color: string;
}

const CHART_HEIGHT = 118;
const TICK_COUNT = 4;

/** One scalar metric: raw values faint, the debiased EMA solid, newest value in the header. */
export const MetricChart = memo(function MetricChart({ metric, title, records, xAxis, smoothing, color }: MetricChartProps) {
  const [frameRef, frame] = useChartFrame<HTMLElement>();
  const [shown, setShown] = useState(records);
  const owner = useRef({});
  useEffect(() => {
    // A chart out of view keeps its old rows; it catches up when scrolled back in.
    if (!frame.visible || shown === records) return;
    // A transition render yields to the browser every few milliseconds instead of running as one task.
    return chartRedrawQueue.request(owner.current, () => startTransition(() => setShown(records)));
  }, [records, shown, frame.visible]);
  const rows = useMemo(() => chartRows(shown, metric, xAxis, smoothing), [shown, metric, xAxis, smoothing]);
  const plot = useMemo(() => {
    const xs = rows.map((row) => row.x);
    const series: PlotSeries[] = [
      { key: 'raw', label: 'raw', ys: rows.map((row) => row.raw), color, opacity: 0.25 },
      { key: 'smooth', label: 'smoothed', ys: rows.map((row) => row.smooth), color, strokeWidth: 1.6, dots: rows.length < 3 },
    ];
    const xDomain: [number, number] = [xs[0] ?? 0, xs.at(-1) ?? 1];
    const yDomain = paddedDomain([...series[0].ys, ...series[1].ys]);
    return { xs, series, xDomain, yDomain, xTicks: niceTicks(xDomain[0], xDomain[1], TICK_COUNT), yTicks: niceTicks(yDomain[0], yDomain[1], TICK_COUNT) };
  }, [rows, color]);
  const latest = rows.at(-1);
  const slug = metric.replace('/', '-');
  const describeX = xAxis === 'env_steps' ? (x: number) => `env steps ${formatValue(x)}` : (x: number) => `${formatValue(x)} s`;
  return (
    <figure ref={frameRef} className="chart" data-testid={`chart-${slug}`} data-points={rows.length} title={METRICS[metric].doc}>
      <figcaption>
        <span className="chart-title">{title}</span>
        <span className="chart-value mono" data-testid={`latest-${slug}`}>{latest ? formatValue(latest.raw) : '–'}</span>
      </figcaption>
      {rows.length === 0 || frame.width === 0 ? (
        <div className="chart-empty muted">{rows.length === 0 ? 'no data yet' : ''}</div>
      ) : (
        <LinePlot width={frame.width} height={CHART_HEIGHT} {...plot} yAxisWidth={44} describeX={describeX} />
      )}
    </figure>
  );
});
