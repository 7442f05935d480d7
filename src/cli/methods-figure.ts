/**
 * A task's learning-curve figure for compare=methods: per method, its runs' in-run evaluation against
 * env steps, the mean over seeds as a line and their min–max as a band (core's seedBand). Every method
 * keeps its colour from task to task: one without curves still has its legend entry, saying why.
 */
import { metricSeries, seedBand, type MetricKey, type MetricRecord, type SeedCurve } from '../core/metrics';
import { learningCurveSvg, type CurveSeries } from './learning-curve-svg';
import type { Measure } from './methods-table';

/** The in-run evaluation a task's figure plots: success where it has a success rule, else the return. */
export function curveMetric(measure: Measure): MetricKey {
  return measure === 'success' ? 'eval/success_rate' : 'eval/episode_return';
}

/** A run's in-run evaluation against env steps: the curve the figure plots for it. */
export function runCurve(records: readonly MetricRecord[], measure: Measure): SeedCurve {
  return metricSeries(records, curveMetric(measure), 'progress/env_steps');
}

/** One method's seeds for the figure: their curves, or why it has none. */
export interface MethodCurves {
  label: string;
  curves: readonly SeedCurve[];
  /** Shown in the legend when there is no curve: "not run", "n/a". */
  missing?: string;
}

export function methodsFigureSvg(task: string, measure: Measure, methods: readonly MethodCurves[]): string {
  const metric = curveMetric(measure);
  const series: CurveSeries[] = methods.map((method) => {
    const band = seedBand(method.curves);
    if (band.x.length === 0) {
      const why = method.missing ?? (method.curves.length > 0 ? 'no in-run evaluation' : 'not run');
      return { label: `${method.label} (${why})`, x: [], y: [] };
    }
    return { label: `${method.label} (${band.seeds} seed${band.seeds > 1 ? 's' : ''})`, x: band.x, y: band.mean, band: { low: band.low, high: band.high } };
  });
  const measureName = measure === 'success' ? 'success rate' : 'return';
  return learningCurveSvg(series, { title: `${task}: in-run evaluation ${measureName}, mean over seeds and min–max`, xLabel: 'env steps', yLabel: metric });
}
