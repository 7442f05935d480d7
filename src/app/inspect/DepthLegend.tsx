import { depthBrightness, depthColour, depthLegendTicks, MISS_RGB, spacedDepthTicks, type DepthRange } from '../../core/render/depth-colour-map';

const css = ([red, green, blue]: readonly number[]) => `rgb(${red}, ${green}, ${blue})`;

/** The depth image's colour bar from its nearest to its farthest hit, with round ticks in metres, and the colour of misses. */
export function DepthLegend({ range }: { range: DepthRange | undefined }) {
  if (!range) return <p className="muted small" data-testid="depth-legend">No ray hit anything: the depth image is empty.</p>;
  // The bar runs from near (left) to far in the image's own scale, inverse depth: depth d sits at 1 − brightness(d).
  const at = (depth: number) => (1 - depthBrightness(depth, range)) * 100;
  const inverseAt = (fraction: number) => 1 / (1 / range.near - fraction * (1 / range.near - 1 / range.far));
  const gradient = [0, 0.25, 0.5, 0.75, 1].map((fraction) => `${css(depthColour(inverseAt(fraction), range))} ${fraction * 100}%`).join(', ');
  const ticks = spacedDepthTicks(depthLegendTicks(range), range);
  return (
    <div className="depth-legend" data-testid="depth-legend" data-near={range.near} data-far={range.far}>
      <div className="depth-bar" style={{ background: `linear-gradient(to right, ${gradient})` }} />
      <div className="depth-ticks">
        {ticks.map((tick) => (
          <span key={tick} className="depth-tick mono" style={{ left: `${at(tick)}%` }}>{tick} m</span>
        ))}
      </div>
      <p className="muted small">
        depth {range.near.toFixed(2)}–{range.far.toFixed(2)} m, near bright, scaled by 1 / depth · <span className="depth-miss-swatch" style={{ background: css(MISS_RGB) }} /> no hit
      </p>
    </div>
  );
}
