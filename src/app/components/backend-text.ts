import { speedFigure } from '../../core/backend/backend-speed';
import type { BackendReport } from '../../protocol/trainer-api';

/** One figure of the badge: "wasm 7.1k samples/s" for the fastest, "webgpu 2.3k" for the rest ("<2.3k": an upper bound). */
export interface SpeedFigure {
  backend: string;
  text: string;
  inUse: boolean;
}

export function speedFigures(report: Pick<BackendReport, 'backend' | 'speeds'>): SpeedFigure[] {
  return report.speeds.map((speed, index) => ({
    backend: speed.backend,
    text: `${speedFigure(speed)}${index === 0 ? ' samples/s' : ''}`,
    inUse: speed.backend === report.backend,
  }));
}

/** The badge's tooltip: how the backend was chosen, by which rule, and why others did not start. */
export function backendTitle(report: BackendReport): string {
  const how = report.choice === 'measured'
    ? `chosen by timing the selected model at ${report.timedAt ?? 'the run\'s sizes'}: the shorter PPO iteration wins (decisions for all envs + minibatch gradient steps); samples/s = decisions per iteration ÷ that time`
    : report.choice === 'forced'
      ? `forced with ?backend=${report.forced}${report.timedAt ? `; timed at ${report.timedAt}` : ''}`
      : report.choice === 'resumed'
        ? `the backend the resumed run was saved on, so it continues bit-exact; the next new run is timed again${report.timedAt ? ` (last timed at ${report.timedAt})` : ''}`
        : 'picked by preference until a model is timed';
  const ms = (seconds: number) => `${(seconds * 1000).toFixed(1)} ms`;
  const figures = report.speeds.map((speed) => `${speed.backend}: ${ms(speed.decisionSeconds)} per decision, ${speed.partial
    ? 'gradient step not timed: its decisions alone took longer than the fastest whole iteration'
    : `${ms(speed.gradStepSeconds)} per gradient step`}`);
  const failures = report.failures.map((failure) => `${failure.backend} did not start: ${failure.reason}`);
  return [how, ...(report.stubbed ? ['(stubbed timings of a test build)'] : []), ...figures, ...failures].join('\n');
}
