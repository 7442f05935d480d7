/**
 * Whose number a chart's header shows while runs are overlaid: always the current run's newest
 * value, so with an overlay it is labelled, in the current run's colour when the overlay draws it.
 */
import type { OverlayRun } from './chart-data';

export interface HeaderOwner {
  label: string;
  /** The current run's overlay colour, when its curve is drawn. */
  colour?: string;
  title: string;
}

/** undefined with no overlay: the chart draws only the current run, so its number needs no label. */
export function chartHeaderOwner(overlay: readonly (OverlayRun & { current?: boolean })[] | undefined): HeaderOwner | undefined {
  if (!overlay) return undefined;
  const current = overlay.find((run) => run.current && !run.hidden);
  return current
    ? { label: 'this run', colour: current.colour, title: `The newest value of the current run (${current.name}), the curve in this colour` }
    : { label: 'this run', title: 'The newest value of the current run, which the overlay does not draw: tick it in the Runs tab to see its curve' };
}
