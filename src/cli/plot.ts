/**
 * `npm run plot -- runs=DIR[,DIR...] out=FILE.png [metric=charts/success_rate]`: renders learning
 * curves from each run folder's metrics.jsonl as an SVG, then to PNG through Chromium. Without
 * metric=, runs of a task without a success rule (they log no success) plot eval/episode_return.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseCliArgs, runCli } from './cli-args';
import { emaSmooth, isMetricKey, metricSeries, type MetricKey, type MetricRecord } from '../core/metrics';
import { learningCurveSvg, type CurveSeries } from './learning-curve-svg';
import { readMetricsFile } from './metrics-file';
import { renderSvgToPng } from './svg-png';

const SPEC = {
  runs: { kind: 'string', required: true, doc: 'comma-separated run folders (each with metrics.jsonl)' },
  out: { kind: 'string', required: true, doc: 'PNG to write (an .svg is written beside it)' },
  metric: { kind: 'string', default: '', doc: 'metric key to plot against env steps (default eval/success_rate; eval/episode_return for runs that log no success)' },
  smoothing: { kind: 'number', min: 0, max: 0.99, default: 0, doc: 'EMA weight (debiased)' },
} as const;

/**
 * eval/success_rate, unless the runs finished episodes yet logged no success at all: a task without
 * a success rule, whose runs are measured by return.
 */
function defaultMetric(records: readonly MetricRecord[]): MetricKey {
  const logsSuccess = records.some((record) => record['charts/success_rate'] !== undefined || record['eval/success_rate'] !== undefined);
  const logsEpisodes = records.some((record) => record['charts/episode_return'] !== undefined || record['eval/episode_return'] !== undefined);
  return !logsSuccess && logsEpisodes ? 'eval/episode_return' : 'eval/success_rate';
}

async function main(): Promise<void> {
  const args = parseCliArgs(process.argv.slice(2), SPEC, { program: 'npm run plot --' });
  if (args.metric && !isMetricKey(args.metric)) throw new Error(`metric '${args.metric}' is not a metric key`);
  const runs = args.runs.split(',').map((runDir) => ({ runDir, records: readMetricsFile(path.join(runDir, 'metrics.jsonl')) }));
  const metric = (args.metric as MetricKey) || defaultMetric(runs.flatMap((run) => run.records));
  const series: CurveSeries[] = runs.map(({ runDir, records }) => {
    const points = metricSeries(records, metric, 'progress/env_steps');
    const smoothed = args.smoothing > 0 ? Array.from(emaSmooth(points.ys, args.smoothing)) : Array.from(points.ys);
    return { label: path.basename(runDir), x: Array.from(points.xs), y: smoothed };
  });
  const svg = learningCurveSvg(series, { title: metric, xLabel: 'env steps', yLabel: metric });
  const svgPath = args.out.replace(/\.png$/i, '') + '.svg';
  writeFileSync(svgPath, svg);
  try {
    await renderSvgToPng(svg, args.out);
  } catch (error) {
    throw new Error(`${(error as Error).message}; the SVG was written to ${svgPath}`, { cause: error });
  }
  console.log(JSON.stringify({ svg: svgPath, png: args.out, series: series.map((entry) => ({ label: entry.label, points: entry.x.length })) }));
}

void runCli(main);
