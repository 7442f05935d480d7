import { describe, expect, it } from 'vitest';
import { labelWidth, markerLabelPlace, xTickAnchor } from './label-place';

describe('label placement', () => {
  it('sets the last x tick flush with the right edge, so "1000" is not cut to "100("', () => {
    // A 300 px plot whose area ends at 290: "1000" is about 25 px, half of it crosses 300.
    expect(labelWidth('1000', 10)).toBeCloseTo(24.8);
    expect(xTickAnchor(290, '1000', 10, 300)).toBe('end');
    expect(xTickAnchor(150, '1000', 10, 300)).toBe('middle');
    expect(xTickAnchor(5, '1000', 10, 300)).toBe('start');
  });

  it('puts "now" right of its line when it would run into the y-axis labels', () => {
    // y labels end at left = 40; "now" is about 19 px wide.
    expect(markerLabelPlace(45, 'now', 10, 40)).toEqual({ x: 48, anchor: 'start' });
    expect(markerLabelPlace(200, 'now', 10, 40)).toEqual({ x: 197, anchor: 'end' });
  });
});
