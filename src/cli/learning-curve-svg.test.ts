import { describe, expect, it } from 'vitest';
import { learningCurveSvg } from './learning-curve-svg';

describe('learningCurveSvg', () => {
  it('draws one polyline per run with its finite points, a legend entry each, and escaped labels', () => {
    const svg = learningCurveSvg(
      [
        { label: 'lift <seed 0>', x: [0, 1000, 2000], y: [0.2, 0.5, Number.NaN] },
        { label: 'lift seed 1', x: [0, 1000], y: [0.3, 0.4] },
      ],
      { title: 'eval/success_rate', xLabel: 'env steps', yLabel: 'success' },
    );
    const polylines = [...svg.matchAll(/<polyline[^>]*points="([^"]*)"/g)].map((match) => match[1].split(' ').length);
    // The NaN point is left out: 2 points for the first run, 2 for the second.
    expect(polylines).toEqual([2, 2]);
    expect(svg).toContain('lift &lt;seed 0&gt;');
    expect(svg).toContain('lift seed 1');
    expect(svg.startsWith('<svg')).toBe(true);
  });

  it('gives every series its own look when there are more series than colours: the second round is dashed', () => {
    const series = Array.from({ length: 12 }, (_, index) => ({ label: `run ${index}`, x: [0, 1], y: [0.1, 0.2] }));
    const svg = learningCurveSvg(series, { title: 't', xLabel: 'x', yLabel: 'y' });
    const styles = [...svg.matchAll(/<polyline fill="none" stroke="([^"]*)" stroke-width="2"( stroke-dasharray="[^"]*")?/g)]
      .map((match) => `${match[1]}${match[2] ?? ''}`);
    expect(styles).toHaveLength(12);
    expect(new Set(styles).size).toBe(12);
    // The 11th series reuses the first colour, dashed.
    expect(styles[10]).toBe(`${styles[0]} stroke-dasharray="6 3"`);
  });

  it('draws a run of 130k iterations: axes span every point, and the curve keeps its peak in a few thousand points', () => {
    const count = 130_000;
    const x = Array.from({ length: count }, (_, index) => (index + 1) * 64);
    const y = Array.from({ length: count }, (_, index) => 0.25 + 0.5 * (index / count));
    y[77_777] = 1;
    const svg = learningCurveSvg([{ label: 'long run', x, y }], { title: 't', xLabel: 'env steps', yLabel: 'success' });
    const points = /<polyline[^>]*points="([^"]*)"/.exec(svg)![1].split(' ').map((pair) => pair.split(',').map(Number));
    expect(points.length).toBeGreaterThan(1000);
    expect(points.length).toBeLessThanOrEqual(2000);
    // The x axis reaches the last env step (8,320,000) and the peak sits on the top of the plot (y = 36).
    expect(svg).toContain('>8,000,000</text>');
    expect(points.reduce((top, [, py]) => Math.min(top, py), Infinity)).toBe(36);
    expect(points[0][0]).toBeLessThan(points.at(-1)![0]);
  });

  it('draws a band as a translucent area in its series\' colour beneath every line, and the axes take in its ends', () => {
    const svg = learningCurveSvg(
      [
        { label: 'flow', x: [0, 100, 200], y: [1, 2, 3], band: { low: [0, 1, 2], high: [2, 3, 10] } },
        { label: 'gaussian', x: [0, 200], y: [1, 2] },
      ],
      { title: 't', xLabel: 'env steps', yLabel: 'return' },
    );
    const polygons = [...svg.matchAll(/<polygon fill="([^"]*)" fill-opacity="([^"]*)"[^>]*points="([^"]*)"/g)];
    expect(polygons).toHaveLength(1);
    const [, fill, opacity, points] = polygons[0];
    expect(fill).toBe(/<polyline fill="none" stroke="([^"]*)"/.exec(svg)![1]);
    expect(Number(opacity)).toBeLessThan(0.5);
    // The upper edge left to right, then the lower edge back: 6 corners.
    const corners = points.split(' ').map((pair) => pair.split(',').map(Number));
    expect(corners).toHaveLength(6);
    expect(corners.map(([x]) => x)).toEqual([64, 349, 634, 634, 349, 64]);
    // The band's top (10) is the plot's top edge (y = 36): the y axis reaches it though no line does.
    expect(corners[2][1]).toBe(36);
    expect(svg.indexOf('<polygon')).toBeLessThan(svg.indexOf('<polyline'));
  });
});

