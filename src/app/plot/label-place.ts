/**
 * Where axis and marker labels go so they stay inside the plot and off each other: a tick label
 * near an edge is set flush with it instead of centred (where it was clipped), and a marker's
 * label flips to the marker's right when its left would run into the y-axis labels.
 */

export type TextAnchor = 'start' | 'middle' | 'end';

/** Width of tick text in pixels, from its characters (digits and short suffixes at about 0.6 em). */
export function labelWidth(text: string, fontSize: number): number {
  return text.length * fontSize * 0.62;
}

/** An x tick label's anchor: centred on `x` unless half of it would cross 0 or `width`. */
export function xTickAnchor(x: number, text: string, fontSize: number, width: number): TextAnchor {
  const half = labelWidth(text, fontSize) / 2;
  if (x + half > width) return 'end';
  if (x - half < 0) return 'start';
  return 'middle';
}

/** A marker label's x and anchor: left of the marker's line, or right of it when it would cross `left`. */
export function markerLabelPlace(x: number, text: string, fontSize: number, left: number, gap = 3): { x: number; anchor: TextAnchor } {
  return x - gap - labelWidth(text, fontSize) < left ? { x: x + gap, anchor: 'start' } : { x: x - gap, anchor: 'end' };
}
