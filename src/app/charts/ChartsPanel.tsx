import { useMemo } from 'react';
import { diffConfigs, type ConfigKey, type RunConfig } from '../../core/config';
import type { MetricKey } from '../../core/metrics';
import type { SelectedRun } from '../runs/selected-runs';
import { useCompareStore } from '../store/compare-slice';
import { useSelectedRuns } from '../runs/use-selected-runs';
import { useRunStore } from '../store/run-slice';
import { ChartLegend } from './ChartLegend';
import { episodeCharts, tasksHaveSuccess } from './episode-charts';
import { GroupBySelect } from './GroupBySelect';
import { MetricChart, type ChartGroup } from './MetricChart';
import { groupRunsBy } from './run-groups';

interface ChartSpec {
  metric: MetricKey;
  title: string;
  /** Logged only by some configs: the chart shows only once a drawn run has logged it. */
  optional?: true;
}

interface ChartSection {
  name: string;
  color: string;
  charts: ChartSpec[];
}

/** The episode charts come first and depend on the tasks drawn (episode-charts.ts). */
const EPISODES_COLOR = '#2563eb';

const SECTIONS: ChartSection[] = [
  {
    name: 'Losses',
    color: '#c2410c',
    charts: [
      { metric: 'losses/policy', title: 'policy loss' },
      { metric: 'losses/value', title: 'value loss' },
      { metric: 'losses/approx_kl', title: 'approx KL' },
      { metric: 'losses/clip_fraction', title: 'clip fraction' },
      { metric: 'losses/entropy', title: 'entropy' },
      { metric: 'losses/explained_variance', title: 'explained variance' },
      { metric: 'losses/grad_norm', title: 'grad norm' },
      { metric: 'losses/bc', title: 'BC regularizer (ppo.bc_coef)', optional: true },
      { metric: 'advantages/grpo_kept_fraction', title: 'GRPO groups kept', optional: true },
    ],
  },
  {
    name: 'Noise and speed',
    color: '#047857',
    charts: [
      { metric: 'noise/std', title: 'noise std in use' },
      { metric: 'train/actor_lr', title: 'actor lr' },
      { metric: 'perf/env_steps_per_s', title: 'env steps / s' },
    ],
  },
  {
    name: 'Time per iteration',
    color: '#7c3aed',
    charts: [
      { metric: 'perf/env_s', title: 'env stepping (s)' },
      { metric: 'perf/policy_s', title: 'policy inference (s)' },
      { metric: 'perf/update_s', title: 'PPO update (s)' },
    ],
  },
];

/** The keys on which the overlaid runs' configs differ: what they can be grouped by. */
function groupableKeys(runs: readonly SelectedRun[]): ConfigKey[] {
  const configs = runs.map((run) => run.config).filter((config): config is RunConfig => config !== undefined);
  return diffConfigs(configs).map((row) => row.key);
}

/** The overlaid runs grouped by `key`, each group in its first run's colour; runs hidden in the legend stay out. */
function chartGroups(runs: readonly SelectedRun[], key: ConfigKey): ChartGroup[] {
  return groupRunsBy(runs.filter((run) => !run.hidden), key).map(({ value, runs: members }) => ({
    key: `${key}=${value}`, label: `${key} = ${value}`, colour: members[0].colour, runs: members,
  }));
}

/**
 * The live charts with the smoothing slider and x-axis choice (TensorBoard-style debiased EMA).
 * With runs selected in the Runs tab, every chart overlays them, and a legend toggles each one.
 */
export function ChartsPanel() {
  const records = useRunStore((state) => state.records);
  const selectedRuns = useSelectedRuns(true);
  const overlay = selectedRuns.length > 0 ? selectedRuns : undefined;
  const groupKeys = useMemo(() => groupableKeys(selectedRuns), [selectedRuns]);
  const chosenGroupBy = useCompareStore((state) => state.groupBy);
  // A key the runs no longer differ on (another selection) groups nothing.
  const groupBy = chosenGroupBy !== undefined && groupKeys.includes(chosenGroupBy) ? chosenGroupBy : undefined;
  const groups = useMemo(() => (overlay && groupBy ? chartGroups(overlay, groupBy) : undefined), [overlay, groupBy]);
  const smoothing = useRunStore((state) => state.smoothing);
  const xAxis = useRunStore((state) => state.xAxis);
  const { setSmoothing, setXAxis } = useRunStore.getState();
  const tasks = useRunStore((state) => state.tasks);
  const task = useRunStore((state) => state.config.task);
  const drawnTasks = overlay ? overlay.map((run) => run.config?.task ?? task) : [task];
  const hasSuccess = tasksHaveSuccess(tasks, drawnTasks);
  const sections = useMemo((): ChartSection[] => [{ name: 'Episodes', color: EPISODES_COLOR, charts: episodeCharts(hasSuccess) }, ...SECTIONS], [hasSuccess]);
  const logged = (metric: MetricKey) =>
    (overlay ? overlay.map((run) => run.records) : [records]).some((runRecords) => runRecords?.some((record) => record[metric] !== undefined) ?? false);
  return (
    <section className="charts-panel" data-testid="charts">
      <div className="chart-toolbar">
        <label title="Debiased exponential moving average, as in TensorBoard">
          smoothing
          <input type="range" min={0} max={0.99} step={0.01} value={smoothing} data-testid="smoothing" onChange={(event) => setSmoothing(Number(event.target.value))} />
          <span className="mono">{smoothing.toFixed(2)}</span>
        </label>
        <label>
          x axis
          <select value={xAxis} data-testid="x-axis" onChange={(event) => setXAxis(event.target.value as typeof xAxis)}>
            <option value="env_steps">env steps</option>
            <option value="wall_time">wall time (s)</option>
          </select>
        </label>
        {groupKeys.length > 0 && <GroupBySelect keys={groupKeys} value={groupBy} />}
        <span className="muted" data-testid="record-count">{records.length} iterations logged</span>
      </div>
      {overlay && <ChartLegend runs={overlay} />}
      {groups && (
        <div className="chart-legend" data-testid="group-legend">
          {groups.map((group) => (
            <span key={group.key} className="legend-entry" data-testid="group-entry" data-runs={group.runs.length}>
              <span className="plot-swatch" style={{ background: group.colour }} />{group.label} · {group.runs.length} run{group.runs.length === 1 ? '' : 's'}
            </span>
          ))}
          <span className="muted small">mean, with a band from the lowest to the highest run</span>
        </div>
      )}
      {sections.map((section) => (
        <div key={section.name} className="chart-section">
          <h3>{section.name}</h3>
          <div className="chart-grid">
            {section.charts.filter((chart) => !chart.optional || logged(chart.metric)).map(({ optional: _optional, ...chart }) => (
              <MetricChart key={chart.metric} {...chart} records={records} overlay={overlay} groups={groups} xAxis={xAxis} smoothing={smoothing} color={section.color} />
            ))}
          </div>
        </div>
      ))}
    </section>
  );
}
