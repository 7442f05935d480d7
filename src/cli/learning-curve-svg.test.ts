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
});
