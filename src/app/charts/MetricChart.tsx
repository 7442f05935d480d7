import { memo, startTransition, useEffect, useMemo, useRef, useState } from 'react';
import { CartesianGrid, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import { METRICS, type MetricKey, type MetricRecord } from '../../core/metrics';
import { chartRows, type ChartRow, type XAxisKind } from './chart-data';
import { niceTicks } from './nice-ticks';
import { chartRedrawQueue } from './redraw-queue';
import { useChartFrame } from './use-chart-frame';

export interface MetricChartProps {
  metric: MetricKey;
  title: string;
  records: readonly MetricRecord[];
  xAxis: XAxisKind;
  smoothing: number;
  color: string;
}

function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const magnitude = Math.abs(value);
  if (magnitude !== 0 && (magnitude >= 1e5 || magnitude < 1e-3)) return value.toExponential(2);
  return Number(value.toPrecision(4)).toString();
}

/** Short axis ticks: three significant digits. */
function formatTick(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const magnitude = Math.abs(value);
  if (magnitude !== 0 && (magnitude >= 1e5 || magnitude < 1e-3)) return value.toExponential(1);
  return Number(value.toPrecision(3)).toString();
}

/** The y range of raw and smoothed values, widened when flat so a constant line sits mid-chart. */
function valueDomain(rows: readonly { raw: number; smooth: number }[]): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const row of rows) {
    for (const value of [row.raw, row.smooth]) {
      if (!Number.isFinite(value)) continue;
      lo = Math.min(lo, value);
      hi = Math.max(hi, value);
    }
  }
  if (!Number.isFinite(lo)) return [0, 1];
  if (hi - lo < 1e-12) {
    const pad = Math.abs(lo) > 0 ? Math.abs(lo) * 0.1 : 1;
    return lo === 0 ? [0, 1] : [lo - pad, hi + pad];
  }
  const pad = (hi - lo) * 0.05;
  return [lo - pad, hi + pad];
}

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
  const latest = rows.at(-1);
  const domain = useMemo(() => valueDomain(rows), [rows]);
  const slug = metric.replace('/', '-');
  return (
    <figure ref={frameRef} className="chart" data-testid={`chart-${slug}`} data-points={rows.length} title={METRICS[metric].doc}>
      <figcaption>
        <span className="chart-title">{title}</span>
        <span className="chart-value mono" data-testid={`latest-${slug}`}>{latest ? formatNumber(latest.raw) : '–'}</span>
      </figcaption>
      <ChartBody rows={rows} domain={domain} xAxis={xAxis} color={color} width={frame.width} />
    </figure>
  );
});

interface ChartBodyProps {
  rows: ChartRow[];
  domain: [number, number];
  xAxis: XAxisKind;
  color: string;
  /** The figure's content width; the plot is drawn once it is known. */
  width: number;
}

const CHART_HEIGHT = 118;
const TICK_COUNT = 4;
const TICK_FONT_SIZE = 10;

interface AxisTickProps {
  x?: number | string;
  y?: number | string;
  payload?: { value: unknown };
  textAnchor?: string;
  orientation?: string;
}

/**
 * A plain SVG label: recharts' own tick text measures each label in the DOM
 * (a forced layout per new string), which a live chart pays on every redraw.
 */
function AxisTick({ x = 0, y = 0, payload, textAnchor, orientation }: AxisTickProps) {
  const vertical = orientation === 'left' || orientation === 'right';
  const anchor = textAnchor === 'start' || textAnchor === 'middle' || textAnchor === 'end' ? textAnchor : undefined;
  return (
    <text x={x} y={y} dy={vertical ? '0.32em' : '0.9em'} textAnchor={anchor} fontSize={TICK_FONT_SIZE} fill="#666">
      {payload ? formatTick(Number(payload.value)) : ''}
    </text>
  );
}

const ChartBody = memo(function ChartBody({ rows, domain, xAxis, color, width }: ChartBodyProps) {
  const xDomain = useMemo((): [number, number] => [rows[0]?.x ?? 0, rows.at(-1)?.x ?? 1], [rows]);
  const xTicks = useMemo(() => niceTicks(xDomain[0], xDomain[1], TICK_COUNT), [xDomain]);
  const yTicks = useMemo(() => niceTicks(domain[0], domain[1], TICK_COUNT), [domain]);
  return (
    <>
      {rows.length === 0 || width === 0 ? (
        <div className="chart-empty muted">{rows.length === 0 ? 'no data yet' : ''}</div>
      ) : (
        <LineChart width={width} height={CHART_HEIGHT} data={rows} margin={{ top: 4, right: 8, bottom: 0, left: -4 }}>
          <CartesianGrid stroke="#eef0f3" vertical={false} />
          <XAxis dataKey="x" type="number" domain={xDomain} ticks={xTicks} interval={0} tick={AxisTick} />
          <YAxis width={58} domain={domain} ticks={yTicks} interval={0} tick={AxisTick} />
          <Tooltip formatter={(value) => formatNumber(Number(value))} labelFormatter={(label) => `${xAxis === 'env_steps' ? 'env steps' : 'seconds'} ${formatNumber(Number(label))}`} />
          <Line dataKey="raw" stroke={color} strokeOpacity={0.25} dot={false} isAnimationActive={false} strokeWidth={1} />
          <Line dataKey="smooth" stroke={color} dot={rows.length < 3} isAnimationActive={false} strokeWidth={1.6} />
        </LineChart>
      )}
    </>
  );
});
