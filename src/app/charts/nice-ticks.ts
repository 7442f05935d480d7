/**
 * Round axis ticks (1, 2 or 5 × 10^k apart, about `count` of them) inside [lo, hi]. Computed here in plain
 * floats so the charts skip recharts' arbitrary-precision tick search on every redraw.
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
