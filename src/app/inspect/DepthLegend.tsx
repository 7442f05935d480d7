import { depthColour, depthLegendTicks, MISS_RGB, type DepthRange } from '../../core/render/depth-colour-map';

const css = ([red, green, blue]: readonly number[]) => `rgb(${red}, ${green}, ${blue})`;

/** The depth image's colour bar from its nearest to its farthest hit, with round ticks in metres, and the colour of misses. */
export function DepthLegend({ range }: { range: DepthRange | undefined }) {
  if (!range) return <p className="muted small" data-testid="depth-legend">No ray hit anything: the depth image is empty.</p>;
  const span = range.far - range.near;
  const gradient = [0, 0.25, 0.5, 0.75, 1].map((fraction) => `${css(depthColour(range.near + fraction * span, range))} ${fraction * 100}%`).join(', ');
  const ticks = depthLegendTicks(range);
  return (
    <div className="depth-legend" data-testid="depth-legend" data-near={range.near} data-far={range.far}>
      <div className="depth-bar" style={{ background: `linear-gradient(to right, ${gradient})` }} />
      <div className="depth-ticks">
        {ticks.map((tick) => (
          <span key={tick} className="depth-tick mono" style={{ left: `${span > 0 ? ((tick - range.near) / span) * 100 : 0}%` }}>{tick} m</span>
        ))}
      </div>
      <p className="muted small">
        depth {range.near.toFixed(2)}–{range.far.toFixed(2)} m, near bright · <span className="depth-miss-swatch" style={{ background: css(MISS_RGB) }} /> no hit
      </p>
    </div>
  );
}
