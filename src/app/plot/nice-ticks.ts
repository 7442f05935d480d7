/**
 * Round axis ticks (1, 2 or 5 × 10^k apart, about `count` of them) inside [lo, hi], in plain floats: cheap
 * enough for every redraw of a live plot.
 */
export function niceTicks(lo: number, hi: number, count: number): number[] {
  if (!Number.isFinite(lo) || !Number.isFinite(hi) || count < 2) return [];
  if (hi <= lo) return [lo];
  const rough = (hi - lo) / (count - 1);
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  // The round step nearest the even split, so a narrow range still gets several ticks.
  let step = magnitude;
  for (const factor of [2, 5, 10]) if (Math.abs(factor * magnitude - rough) < Math.abs(step - rough)) step = factor * magnitude;
  const first = Math.ceil(lo / step - 1e-9);
  const last = Math.floor(hi / step + 1e-9);
  const ticks: number[] = [];
  // Multiplying integer indices (not summing steps) keeps 0.1 · 3 from drifting to 0.30000000000000004.
  for (let index = first; index <= last; index++) ticks.push(Number((index * step).toPrecision(12)));
  return ticks;
}

/**
 * Round ticks from 0 to the first round tick strictly above `top` (top > 0), so a value at the
 * top stays inside the plot; [0, 1] ticks when `top` is not a positive number.
 */
export function niceTicksAbove(top: number, count: number): number[] {
  if (!(top > 0) || !Number.isFinite(top)) return niceTicks(0, 1, count);
  // The step for a range a little above the top, so a top on a tick does not crowd one more in.
  const ticks = niceTicks(0, top * 1.15, count);
  const step = ticks.length > 1 ? ticks[1] - ticks[0] : top;
  const last = Math.floor(top / step + 1e-9) + 1;
  return Array.from({ length: last + 1 }, (_, index) => Number((index * step).toPrecision(12)));
}
