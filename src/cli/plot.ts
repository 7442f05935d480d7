/**
 * `npm run plot -- runs=DIR[,DIR...] out=FILE.png [metric=charts/success_rate]`: renders learning
 * curves from each run folder's metrics.jsonl as an SVG, then to PNG through Chromium.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseCliArgs, runCli } from './cli-args';
import { emaSmooth, isMetricKey, metricSeries, type MetricKey } from '../core/metrics';
import { learningCurveSvg, type CurveSeries } from './learning-curve-svg';
import { readMetricsFile } from './metrics-file';
import { renderSvgToPng } from './svg-png';

const SPEC = {
  runs: { kind: 'string', required: true, doc: 'comma-separated run folders (each with metrics.jsonl)' },
  out: { kind: 'string', required: true, doc: 'PNG to write (an .svg is written beside it)' },
  metric: { kind: 'string', default: 'eval/success_rate', doc: 'metric key to plot against env steps' },
  smoothing: { kind: 'number', min: 0, max: 0.99, default: 0, doc: 'EMA weight (debiased)' },
} as const;

async function main(): Promise<void> {
  const args = parseCliArgs(process.argv.slice(2), SPEC, { program: 'npm run plot --' });
  if (!isMetricKey(args.metric)) throw new Error(`metric '${args.metric}' is not a metric key`);
  const metric = args.metric as MetricKey;
  const series: CurveSeries[] = args.runs.split(',').map((runDir) => {
    const records = readMetricsFile(path.join(runDir, 'metrics.jsonl'));
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
