import { useMemo } from 'react';
import type { RecipePoint } from '../../protocol/recipe-api';
import { formatValue } from '../plot/format';
import { LinePlot, type PlotSeries } from '../plot/LinePlot';
import { niceTicks, niceTicksAbove } from '../plot/nice-ticks';
import { useChartFrame } from '../plot/use-chart-frame';
import { useRecipeStore } from '../store/recipe-slice';
import { stageSeries } from './recipe-series';

const CHART_HEIGHT = 130;
const TICK_COUNT = 4;
const LOSS_COLOR = '#c2410c';
const EVAL_COLOR = '#2563eb';

interface StagePlotProps {
  title: string;
  testId: string;
  xs: readonly number[];
  ys: readonly number[];
  color: string;
  /** Both charts of a stage share one step range, so an eval point sits under the loss it followed. */
  xDomain: [number, number];
  /** Fixed y range (success rates); otherwise 0 up to the round tick above the top. */
  yDomain?: [number, number];
  empty: string;
  /** Readout heading: the gradient step. */
  label: string;
}

function StagePlot({ title, testId, xs, ys, color, xDomain, yDomain, empty, label }: StagePlotProps) {
  const [frameRef, frame] = useChartFrame<HTMLElement>();
  const plot = useMemo(() => {
    const yTicks = yDomain ? niceTicks(yDomain[0], yDomain[1], 3) : niceTicksAbove(Math.max(...ys), TICK_COUNT);
    const series: PlotSeries[] = [{ key: testId, label, ys, color, strokeWidth: 1.6, dots: xs.length < 12 }];
    return { series, yTicks, yDomain: yDomain ?? ([0, yTicks.at(-1) ?? 1] as [number, number]), xTicks: niceTicks(xDomain[0], xDomain[1], TICK_COUNT) };
  }, [xs, ys, color, xDomain, yDomain, testId, label]);
  const latest = ys.at(-1);
  return (
    <figure ref={frameRef} className="chart" data-testid={testId} data-points={xs.length}>
      <figcaption>
        <span className="chart-title">{title}</span>
        <span className="chart-value mono">{latest !== undefined ? formatValue(latest) : '–'}</span>
      </figcaption>
      {xs.length === 0 || frame.width === 0 ? (
        <div className="chart-empty muted" style={{ height: CHART_HEIGHT }}>{xs.length === 0 ? empty : ''}</div>
      ) : (
        <LinePlot width={frame.width} height={CHART_HEIGHT} xs={xs} series={plot.series} xDomain={xDomain} yDomain={plot.yDomain}
          xTicks={plot.xTicks} yTicks={plot.yTicks} yAxisWidth={40} describeX={(x) => `step ${formatValue(x)}`} />
      )}
    </figure>
  );
}

/** Success rates, padded so points at 0 and 1 stay off the plot's edges. */
const SUCCESS_DOMAIN: [number, number] = [-0.05, 1.05];

/** A training stage's live charts: its BC loss over gradient steps, and the success of its evaluations. */
export function StageCharts({ stage }: { stage: RecipePoint['stage'] }) {
  const points = useRecipeStore((state) => state.points);
  const series = useMemo(() => stageSeries(points, stage), [points, stage]);
  // The stage in hand spans its whole step budget, so its curve grows across the chart as it trains.
  const total = useRecipeStore((state) => (state.status?.stage === stage ? state.status.total : 0));
  const xDomain = useMemo((): [number, number] => [0, Math.max(1, total, series.lossSteps.at(-1) ?? 0, series.evalSteps.at(-1) ?? 0)], [series, total]);
  const lossTitle = stage === 'offline' ? 'weighted BC loss' : 'BC loss';
  return (
    <div className="recipe-charts">
      <StagePlot title={lossTitle} testId={`${stage}-loss-chart`} xs={series.lossSteps} ys={series.losses} color={LOSS_COLOR} xDomain={xDomain}
        empty="the loss appears here once the stage runs" label="loss" />
      <StagePlot title="eval success" testId={`${stage}-eval-chart`} xs={series.evalSteps} ys={series.evalSuccess} color={EVAL_COLOR} xDomain={xDomain}
        yDomain={SUCCESS_DOMAIN} empty="success appears after each evaluation" label="success" />
    </div>
  );
}
