/**
 * A light line plot on recharts' SVG shapes (Surface, Curve) with scales and ticks of its own.
 * recharts' LineChart keeps its props in an internal store and re-renders synchronously on every
 * data change (about 10 ms per chart on a 2-core machine, growing with the point count), which
 * made long main-thread tasks while training. Here a data change re-renders a few SVG elements.
 */
import { memo, useMemo, useState, type PointerEvent, type ReactNode } from 'react';
import { Curve, Surface } from 'recharts';
import { formatTick, formatValue } from './format';
import { hoverPoints } from './hover';
import { markerLabelPlace, xTickAnchor } from './label-place';
import { linearScale, type LinearScale } from './scale';

export interface PlotSeries {
  key: string;
  label: string;
  /** One value per entry of `xs` (or of the plot's xs); a non-finite value leaves a gap. */
  ys: readonly number[];
  /**
   * Ascending x values of this series alone (runs overlaid on one chart each have their own);
   * the hover readout lists such a series only near its x range.
   */
  xs?: readonly number[];
  color: string;
  strokeWidth?: number;
  opacity?: number;
  className?: string;
  /** Draw a dot at every point (for series too short to show as a line). */
  dots?: boolean;
  /** Listed in the hover readout (default true); a bundle of thin lines leaves it off. */
  readout?: boolean;
}

export interface PlotMarker {
  x: number;
  label: string;
  color: string;
}

export interface PlotScales {
  x: LinearScale;
  y: LinearScale;
}

export interface LinePlotProps {
  width: number;
  height: number;
  /** Ascending x values shared by every series that has none of its own. */
  xs?: readonly number[];
  series: readonly PlotSeries[];
  xDomain: readonly [number, number];
  yDomain: readonly [number, number];
  xTicks: readonly number[];
  yTicks: readonly number[];
  /** Room left of the plot for the y tick labels. */
  yAxisWidth?: number;
  verticalGrid?: boolean;
  dashedGrid?: boolean;
  markers?: readonly PlotMarker[];
  /** Marks drawn over the series, in pixels from the scales. */
  overlay?: (scales: PlotScales) => ReactNode;
  /** Marks drawn under the series (bands), in pixels from the scales. */
  underlay?: (scales: PlotScales) => ReactNode;
  /** The readout's heading for an x value, e.g. "env steps 1200". */
  describeX?: (x: number) => string;
  /** The text of an x tick (default: the number, shortened). */
  formatXTick?: (x: number) => string;
}

const MARGIN = { top: 6, right: 10, bottom: 16 };
const TICK_FONT_SIZE = 10;
const GRID_COLOR = '#eef0f3';
/** A run's curve shows in the readout up to this many pixels beyond its first or last point. */
const HOVER_REACH_PX = 8;
const NO_XS: readonly number[] = [];

/** Plot area in pixels: x from left to right, y from top (high values) to bottom. */
function plotArea(width: number, height: number, yAxisWidth: number) {
  return { left: yAxisWidth, right: Math.max(yAxisWidth + 1, width - MARGIN.right), top: MARGIN.top, bottom: Math.max(MARGIN.top + 1, height - MARGIN.bottom) };
}

export function LinePlot(props: LinePlotProps) {
  const { width, height, xs = NO_XS, series, xDomain, yDomain, xTicks, yTicks, yAxisWidth = 40, verticalGrid = false, dashedGrid = false, markers = [], overlay, underlay, describeX = formatValue, formatXTick = formatTick } = props;
  const area = plotArea(width, height, yAxisWidth);
  const scales = useMemo(
    (): PlotScales => ({ x: linearScale(xDomain, [area.left, area.right]), y: linearScale(yDomain, [area.bottom, area.top]) }),
    [xDomain, yDomain, area.left, area.right, area.top, area.bottom],
  );
  // The data x under the pointer; the points it picks are derived, so new data moves the cursor too.
  const [pointerX, setPointerX] = useState<number | undefined>(undefined);
  const onPointerMove = (event: PointerEvent<SVGRectElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    setPointerX(scales.x.invert(area.left + event.clientX - box.left));
  };
  const readoutSeries = series.filter((entry) => entry.readout !== false);
  // The shared grid comes first, so the cursor snaps to it even when no series is in the readout.
  const hovered = pointerX === undefined ? undefined
    : hoverPoints([{ xs, ranged: false }, ...readoutSeries.map((entry) => ({ xs: entry.xs ?? xs, ranged: entry.xs !== undefined }))], pointerX, Math.abs(scales.x.invert(HOVER_REACH_PX) - scales.x.invert(0)));
  const picked = hovered ? readoutSeries.map((entry, index) => ({ entry, index: hovered.indices[index + 1] })).filter(({ index }) => index >= 0) : [];
  const dash = dashedGrid ? '3 3' : undefined;
  return (
    <div className="plot" style={{ width, height }}>
      <Surface width={width} height={height}>
        {yTicks.map((tick) => (
          <g key={`y${tick}`}>
            <line x1={area.left} x2={area.right} y1={scales.y(tick)} y2={scales.y(tick)} stroke={GRID_COLOR} strokeDasharray={dash} />
            <text x={area.left - 4} y={scales.y(tick)} dy="0.32em" textAnchor="end" fontSize={TICK_FONT_SIZE} fill="#666">{formatTick(tick)}</text>
          </g>
        ))}
        {xTicks.map((tick) => (
          <g key={`x${tick}`}>
            {verticalGrid && <line x1={scales.x(tick)} x2={scales.x(tick)} y1={area.top} y2={area.bottom} stroke={GRID_COLOR} strokeDasharray={dash} />}
            <text x={scales.x(tick)} y={area.bottom + 3} dy="0.9em" textAnchor={xTickAnchor(scales.x(tick), formatXTick(tick), TICK_FONT_SIZE, width)} fontSize={TICK_FONT_SIZE} fill="#666">{formatXTick(tick)}</text>
          </g>
        ))}
        <line x1={area.left} x2={area.right} y1={area.bottom} y2={area.bottom} stroke="#9ca3af" />
        {underlay?.(scales)}
        <SeriesLayer xs={xs} series={series} scales={scales} />
        {overlay?.(scales)}
        {markers.filter((marker) => marker.x >= Math.min(...xDomain) && marker.x <= Math.max(...xDomain)).map((marker) => {
          const place = markerLabelPlace(scales.x(marker.x), marker.label, TICK_FONT_SIZE, area.left);
          return (
            <g key={marker.label} className="plot-marker">
              <line x1={scales.x(marker.x)} x2={scales.x(marker.x)} y1={area.top} y2={area.bottom} stroke={marker.color} strokeDasharray="3 3" />
              <text x={place.x} y={area.top + 8} textAnchor={place.anchor} fontSize={TICK_FONT_SIZE} fill={marker.color} paintOrder="stroke" stroke="#fff" strokeWidth={3}>{marker.label}</text>
            </g>
          );
        })}
        {hovered && (
          <g className="plot-cursor" pointerEvents="none">
            <line x1={scales.x(hovered.x)} x2={scales.x(hovered.x)} y1={area.top} y2={area.bottom} stroke="#9ca3af" />
            {picked.filter(({ entry, index }) => Number.isFinite(entry.ys[index])).map(({ entry, index }) => (
              <circle key={entry.key} cx={scales.x((entry.xs ?? xs)[index])} cy={scales.y(entry.ys[index])} r={3} fill={entry.color} />
            ))}
          </g>
        )}
        <rect x={area.left} y={area.top} width={area.right - area.left} height={area.bottom - area.top} fill="transparent"
          onPointerMove={onPointerMove} onPointerLeave={() => setPointerX(undefined)} />
      </Surface>
      {hovered && (
        <div className="plot-readout" data-testid="plot-readout"
          style={scales.x(hovered.x) < width / 2 ? { left: scales.x(hovered.x) + 8 } : { right: width - scales.x(hovered.x) + 8 }}>
          <div className="plot-readout-x">{describeX(hovered.x)}</div>
          {picked.map(({ entry, index }) => (
            <div key={entry.key}><span className="plot-swatch" style={{ background: entry.color }} />{entry.label} <span className="mono">{formatValue(entry.ys[index])}</span></div>
          ))}
        </div>
      )}
    </div>
  );
}

interface SeriesLayerProps {
  xs: readonly number[];
  series: readonly PlotSeries[];
  scales: PlotScales;
}

/** The lines alone, memoized so hovering redraws only the cursor. */
const SeriesLayer = memo(function SeriesLayer({ xs, series, scales }: SeriesLayerProps) {
  return (
    <g className="plot-series">
      {series.map((entry) => {
        const points = (entry.xs ?? xs).map((x, index) => ({ x: scales.x(x), y: scales.y(entry.ys[index]) }));
        return (
          <g key={entry.key}>
            <Curve type="linear" points={points} stroke={entry.color} strokeOpacity={entry.opacity} strokeWidth={entry.strokeWidth ?? 1} fill="none" className={entry.className} />
            {entry.dots && points.filter((point) => Number.isFinite(point.y)).map((point, index) => (
              <circle key={index} cx={point.x} cy={point.y} r={2.5} fill={entry.color} />
            ))}
          </g>
        );
      })}
    </g>
  );
});
