import { downsampleIndices } from '../core/metrics/downsample';

/** One run's curve: x (env steps) and y (the metric), same length. */
export interface CurveSeries {
  label: string;
  x: number[];
  y: number[];
  /** A band around the curve (the spread over seeds), drawn as a translucent area in the curve's colour: low and high at each x. */
  band?: { low: number[]; high: number[] };
}

/** The band's opacity over the white plot, light enough that the lines of other series show through. */
const BAND_OPACITY = 0.18;

/** Ten distinct colours, so up to ten runs never share one. */
const DASH = '6 3';
const COLORS = ['#2563eb', '#dc2626', '#059669', '#d97706', '#7c3aed', '#0891b2', '#db2777', '#65a30d', '#4b5563', '#92400e'];
const PLOT_WIDTH = 570;
const HEIGHT = 420;
/** Approximate advance of one 12 px sans-serif character, to size the legend to its longest label. */
const CHAR_WIDTH = 7;

function niceTicks(min: number, max: number, count: number): number[] {
  const span = max - min || 1;
  const step = 10 ** Math.floor(Math.log10(span / count));
  const multiple = [1, 2, 5, 10].find((factor) => span / (factor * step) <= count) ?? 10;
  const tick = multiple * step;
  const ticks: number[] = [];
  for (let value = Math.ceil(min / tick) * tick; value <= max + tick * 1e-9; value += tick) ticks.push(Number(value.toPrecision(12)));
  return ticks;
}

/**
 * The smallest and largest of `values` and the given floor and ceiling, by a loop: spreading a
 * long run's points into Math.min overflows the call stack (about 130k points do).
 */
function extent(values: readonly number[], low: number, high: number): [number, number] {
  let min = low;
  let max = high;
  for (const value of values) {
    if (value < min) min = value;
    if (value > max) max = value;
  }
  return [min, max];
}

/** The points drawn of a series: its finite ones, min-max downsampled so a long run keeps its peaks in a few thousand points. */
function drawnPoints(entry: CurveSeries): [number, number][] {
  const finite = entry.x.map((x, pointIndex): [number, number] => [x, entry.y[pointIndex]]).filter(([, y]) => Number.isFinite(y));
  return downsampleIndices(finite.map(([, y]) => y)).map((index) => finite[index]);
}

/** A series' band as [x, low, high] at each x where both ends are finite; none without a band. */
function bandPoints(entry: CurveSeries): [number, number, number][] {
  if (!entry.band) return [];
  const { low, high } = entry.band;
  return entry.x.map((x, index): [number, number, number] => [x, low[index], high[index]]).filter(([, lo, hi]) => Number.isFinite(lo) && Number.isFinite(hi));
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A self-contained SVG line plot with axes, ticks and a legend; a series with a band has its area drawn beneath the lines. */
export function learningCurveSvg(series: readonly CurveSeries[], labels: { title: string; xLabel: string; yLabel: string }): string {
  const drawn = series.map(drawnPoints);
  const bands = series.map(bandPoints);
  const [xMin, xMax] = extent(series.flatMap((entry) => entry.x), 0, 1);
  const [yMin, yMax] = extent([...drawn.flatMap((points) => points.map(([, y]) => y)), ...bands.flatMap((points) => points.flatMap(([, low, high]) => [low, high]))], 0, 1e-9);
  const [, longestLabel] = extent(series.map((entry) => entry.label.length), 0, 0);
  const margin = { left: 64, right: Math.max(150, 50 + CHAR_WIDTH * longestLabel), top: 36, bottom: 48 };
  const width = margin.left + PLOT_WIDTH + margin.right;
  const plotWidth = PLOT_WIDTH;
  const plotHeight = HEIGHT - margin.top - margin.bottom;
  const px = (x: number) => margin.left + ((x - xMin) / (xMax - xMin)) * plotWidth;
  const py = (y: number) => margin.top + plotHeight - ((y - yMin) / (yMax - yMin)) * plotHeight;
  const parts: string[] = [`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${HEIGHT}" font-family="sans-serif" font-size="12">`];
  parts.push(`<rect width="${width}" height="${HEIGHT}" fill="#fff"/>`);
  parts.push(`<text x="${margin.left}" y="22" font-size="14" font-weight="bold">${escapeXml(labels.title)}</text>`);
  for (const tick of niceTicks(yMin, yMax, 5)) {
    parts.push(`<line x1="${margin.left}" x2="${margin.left + plotWidth}" y1="${py(tick)}" y2="${py(tick)}" stroke="#e5e7eb"/>`);
    parts.push(`<text x="${margin.left - 6}" y="${py(tick) + 4}" text-anchor="end" fill="#374151">${tick}</text>`);
  }
  for (const tick of niceTicks(xMin, xMax, 6)) {
    parts.push(`<line x1="${px(tick)}" x2="${px(tick)}" y1="${margin.top + plotHeight}" y2="${margin.top + plotHeight + 4}" stroke="#374151"/>`);
    parts.push(`<text x="${px(tick)}" y="${margin.top + plotHeight + 18}" text-anchor="middle" fill="#374151">${tick.toLocaleString('en-US')}</text>`);
  }
  parts.push(`<rect x="${margin.left}" y="${margin.top}" width="${plotWidth}" height="${plotHeight}" fill="none" stroke="#9ca3af"/>`);
  parts.push(`<text x="${margin.left + plotWidth / 2}" y="${HEIGHT - 10}" text-anchor="middle">${escapeXml(labels.xLabel)}</text>`);
  parts.push(`<text transform="translate(16 ${margin.top + plotHeight / 2}) rotate(-90)" text-anchor="middle">${escapeXml(labels.yLabel)}</text>`);
  // Bands first, so every line lies on top of every band.
  bands.forEach((points, seriesIndex) => {
    if (points.length === 0) return;
    const outline = [...points.map(([x, , high]) => [x, high]), ...[...points].reverse().map(([x, low]) => [x, low])];
    parts.push(`<polygon fill="${COLORS[seriesIndex % COLORS.length]}" fill-opacity="${BAND_OPACITY}" stroke="none" points="${outline.map(([x, y]) => `${px(x).toFixed(1)},${py(y).toFixed(1)}`).join(' ')}"/>`);
  });
  series.forEach((entry, seriesIndex) => {
    const color = COLORS[seriesIndex % COLORS.length];
    // Past the palette, colours come round again dashed and without point markers, so no two series look alike.
    const dashed = seriesIndex >= COLORS.length;
    const dash = dashed ? ` stroke-dasharray="${DASH}"` : '';
    const points = drawn[seriesIndex];
    parts.push(`<polyline fill="none" stroke="${color}" stroke-width="2"${dash} points="${points.map(([x, y]) => `${px(x).toFixed(1)},${py(y).toFixed(1)}`).join(' ')}"/>`);
    if (!dashed) for (const [x, y] of points) parts.push(`<circle cx="${px(x).toFixed(1)}" cy="${py(y).toFixed(1)}" r="3" fill="${color}"/>`);
    const legendY = margin.top + 14 + seriesIndex * 18;
    parts.push(`<line x1="${width - margin.right + 12}" x2="${width - margin.right + 32}" y1="${legendY - 4}" y2="${legendY - 4}" stroke="${color}" stroke-width="2"${dash}/>`);
    parts.push(`<text x="${width - margin.right + 38}" y="${legendY}">${escapeXml(entry.label)}</text>`);
  });
  parts.push('</svg>');
  return parts.join('\n');
}
