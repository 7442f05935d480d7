import { useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { CONFIG_FIELDS, deriveSizes, fieldRange, type NoiseConfig, type RunConfig } from '../../core/config';
import { useChartFrame } from '../plot/use-chart-frame';
import { schedulePoints } from '../noise/schedule-points';
import { sliderBounds } from '../noise/slider-bounds';
import { noiseSliderIdleReason, type NoiseSliderField } from '../noise/slider-applies';
import { formatCount, formatValue } from '../plot/format';
import { LinePlot, type PlotSeries } from '../plot/LinePlot';
import { niceTicks, niceTicksAbove } from '../plot/nice-ticks';
import { stepStdPreview } from '../../core/diffusion/step-std-preview';
import { useRunStore } from '../store/run-slice';
import { flowOnlyText } from '../policy/flow-only';
import { FlowOnlyPanel } from '../policy/FlowOnlyPanel';
import { usePolicyKind } from '../policy/use-policy-kind';
import { errorText, trainerClient } from '../workers/trainer-client';

const SCHEDULE_HEIGHT = 116;

/** A refused change is said in the panel's own reserved line, so nothing above the workspace moves. */
async function sendNoise(noise: Partial<NoiseConfig>, setProblem: (text: string | undefined) => void): Promise<void> {
  try {
    await trainerClient().setNoise(noise);
    setProblem(undefined);
  } catch (error) {
    setProblem(errorText(error));
  }
}

interface SliderProps {
  field: NoiseSliderField;
  label: string;
  config: RunConfig;
  step: number;
  /** Display limit below the field's own maximum. */
  upTo?: number;
  onProblem: (text: string | undefined) => void;
}

/**
 * A noise slider over the values validation accepts for its field, given the rest of the config
 * (so σ min never passes σ max); disabled, with the reason, when the method does not use it.
 */
function Slider({ field, label, config, step: gridStep, upTo, onProblem }: SliderProps) {
  const key = `noise.${field}` as const;
  const { min, max, step } = sliderBounds(fieldRange(key, config), gridStep, upTo);
  const value = config.noise[field];
  const idle = noiseSliderIdleReason(field, config.noise);
  return (
    <label className={`slider${idle ? ' slider-idle' : ''}`} title={idle ? `${label} does nothing now: ${idle}` : CONFIG_FIELDS[key].doc}>
      <span>{label}</span>
      <input type="range" min={min} max={max} step={step} value={value} data-testid={`noise-${field}`} disabled={idle !== undefined}
        onChange={(event) => void sendNoise({ [field]: Number(event.target.value) }, onProblem)} />
      <span className="mono" data-testid={`noise-${field}-value`}>{field === 'decay_steps' ? formatCount(value) : value}</span>
      {idle && <span className="slider-reason small" data-testid={`noise-${field}-idle`}>{idle}</span>}
    </label>
  );
}

/** The noise sliders of a flow policy, DPPO's std floor of a diffusion policy; a Gaussian policy's std is learned, and the panel says so. */
export function NoisePanel() {
  const kind = usePolicyKind();
  const reason = flowOnlyText(kind, 'noise');
  if (reason) return <FlowOnlyPanel title="Exploration noise" testId="noise-panel" text={reason} />;
  return kind === 'diffusion' ? <DiffusionNoisePanel /> : <FlowNoisePanel />;
}

/** The std-floor slider's display limit: DPPO's Gym configs use 0.1; the field allows up to 10. */
const FLOOR_SLIDER_TOP = 1;

/**
 * A diffusion policy's exploration (DESIGN.md §17): every denoising step of a rollout samples with
 * max(its own std, dppo.min_sampling_std). The slider reaches the trainer at once and applies from the
 * next rollout; the plot shows each step's own std and what rollouts apply.
 */
function DiffusionNoisePanel() {
  const floor = useRunStore((state) => state.config.dppo.min_sampling_std);
  const steps = useRunStore((state) => state.config.policy.denoise_steps);
  const ddimSteps = useRunStore((state) => state.config.policy.ddim_steps);
  const ftSteps = useRunStore((state) => state.config.dppo.ft_denoising_steps);
  // Shallow-compared: the range is a fresh object on every read.
  const range = useRunStore(useShallow((state) => fieldRange('dppo.min_sampling_std', state.config)));
  const bounds = sliderBounds(range, 0.01, Math.max(FLOOR_SLIDER_TOP, floor));
  const [problem, setProblem] = useState<string>();
  const [frameRef, frame] = useChartFrame<HTMLDivElement>();
  const plot = useMemo(() => {
    // ddim_steps that do not divide T are refused by validation before they reach the config.
    const preview = stepStdPreview(steps, ddimSteps, floor);
    const series: PlotSeries[] = [
      { key: 'own', label: `${ddimSteps > 0 ? 'DDIM σ (η = 1)' : 'DDPM √β̃_t'} of the step`, ys: preview.own, color: '#94a3b8', dots: preview.own.length <= 24 },
      { key: 'applied', label: 'applied in rollouts', ys: preview.applied, color: '#047857', strokeWidth: 2, dots: preview.applied.length <= 24 },
    ];
    const yTicks = niceTicksAbove(Math.max(...preview.applied, ...preview.own), 4);
    const xs = preview.timesteps.map((_, index) => index);
    const stride = Math.max(1, Math.ceil(xs.length / 8));
    return {
      xs, series, xDomain: [0, Math.max(1, xs.length - 1)] as [number, number], yDomain: [0, yTicks.at(-1) ?? 1] as [number, number],
      xTicks: xs.filter((index) => index % stride === 0 || index === xs.length - 1), yTicks,
      formatXTick: (index: number) => String(preview.timesteps[index] ?? ''),
      describeX: (index: number) => `step at t = ${preview.timesteps[index]}${index >= xs.length - ftSteps ? ' (fine-tuned)' : ''}`,
    };
  }, [steps, ddimSteps, floor, ftSteps]);
  const send = async (value: number) => {
    try {
      await trainerClient().setLive({ dppo: { min_sampling_std: value } });
      setProblem(undefined);
    } catch (error) {
      setProblem(errorText(error));
    }
  };
  return (
    <section className="panel" data-testid="noise-panel" data-family="diffusion">
      <h2>Exploration noise</h2>
      <p className="muted small">DPPO explores with a std floor: every denoising step of a rollout samples with max(its own std, the floor). A change applies from the next rollout, and the chain view re-samples at once.</p>
      <label className="slider" title={CONFIG_FIELDS['dppo.min_sampling_std'].doc}>
        <span>std floor</span>
        <input type="range" min={bounds.min} max={bounds.max} step={bounds.step} value={floor} data-testid="noise-min_sampling_std"
          onChange={(event) => void send(Number(event.target.value))} />
        <span className="mono" data-testid="noise-min_sampling_std-value">{floor}</span>
      </label>
      <p className="slider-problem small" role="alert" data-testid="noise-problem" title={problem}>{problem}</p>
      <div className="schedule-plot" data-testid="noise-step-stds" ref={frameRef}>
        <div className="plot-legend">
          {plot.series.map((entry) => <span key={entry.key}><span className="plot-swatch" style={{ background: entry.color }} />{entry.label}</span>)}
        </div>
        {frame.width > 0 ? (
          <LinePlot width={frame.width} height={SCHEDULE_HEIGHT} {...plot} />
        ) : (
          <div style={{ height: SCHEDULE_HEIGHT }} />
        )}
      </div>
      <p className="muted small">Std of each step over the chain's timesteps t, noisiest first ({ddimSteps > 0 ? `DDIM ${ddimSteps} of T ${steps}` : `DDPM, T ${steps}`}); the last {ftSteps} are fine-tuned.</p>
    </section>
  );
}

/** Exploration-noise controls; changes reach the worker at once and apply from the next rollout. */
function FlowNoisePanel() {
  const config = useRunStore((state) => state.config);
  const envSteps = useRunStore((state) => state.status?.envSteps ?? 0);
  const noise = config.noise;
  const total = useMemo(() => deriveSizes(config).totalEnvSteps, [config]);
  const usesHead = noise.method === 'noise';
  const [frameRef, frame] = useChartFrame<HTMLDivElement>();
  const plot = useMemo(() => {
    const points = schedulePoints(config, total);
    const series: PlotSeries[] = usesHead
      ? [
          { key: 'stdMax', label: 'σ max', ys: points.map((point) => point.stdMax), color: '#047857' },
          { key: 'stdMin', label: 'σ min', ys: points.map((point) => point.stdMin), color: '#94a3b8' },
        ]
      : [{ key: 'level', label: 'level a', ys: points.map((point) => point.level), color: '#047857' }];
    const xDomain: [number, number] = [0, points.at(-1)?.envSteps ?? 1];
    // From zero, so a decaying level reads as a fraction of where it started, up to the round tick above the top.
    const yTicks = niceTicksAbove(Math.max(...series.flatMap((entry) => entry.ys)), 4);
    const yDomain: [number, number] = [0, yTicks.at(-1) ?? 1];
    return { xs: points.map((point) => point.envSteps), series, xDomain, yDomain, xTicks: niceTicks(xDomain[0], xDomain[1], 4), yTicks };
  }, [config, total, usesHead]);
  const markers = useMemo(() => [{ x: envSteps, label: 'now', color: '#dc2626' }], [envSteps]);
  const [problem, setProblem] = useState<string>();
  const send = (noise: Partial<NoiseConfig>) => void sendNoise(noise, setProblem);
  return (
    <section className="panel" data-testid="noise-panel">
      <h2>Exploration noise</h2>
      <div className="form-grid">
        <label title={CONFIG_FIELDS['noise.method'].doc}>
          <span>method</span>
          <select value={noise.method} data-testid="noise-method" onChange={(event) => send({ method: event.target.value as NoiseConfig['method'] })}>
            {CONFIG_FIELDS['noise.method'].values.map((method) => <option key={method} value={method}>{method}</option>)}
          </select>
        </label>
        <label title={CONFIG_FIELDS['noise.decay'].doc}>
          <span>decay</span>
          <select value={noise.decay} data-testid="noise-decay" onChange={(event) => send({ decay: event.target.value as NoiseConfig['decay'] })}>
            {CONFIG_FIELDS['noise.decay'].values.map((decay) => <option key={decay} value={decay}>{decay}</option>)}
          </select>
        </label>
      </div>
      <Slider field="level" label="level a" config={config} step={0.01} onProblem={setProblem} />
      <Slider field="std_min" label="σ min" config={config} step={0.001} onProblem={setProblem} />
      <Slider field="std_max" label="σ max" config={config} step={0.001} onProblem={setProblem} />
      <Slider field="decay_steps" label="decay steps" config={config} step={Math.max(1, Math.round(Math.max(total, 1000) / 200))} upTo={Math.max(total, noise.decay_steps, 1000)} onProblem={setProblem} />
      <p className="slider-problem small" role="alert" data-testid="noise-problem" title={problem}>{problem}</p>
      <div className="schedule-plot" data-testid="noise-schedule" ref={frameRef}>
        <div className="plot-legend">
          {plot.series.map((entry) => <span key={entry.key}><span className="plot-swatch" style={{ background: entry.color }} />{entry.label}</span>)}
        </div>
        {frame.width > 0 ? (
          <LinePlot width={frame.width} height={SCHEDULE_HEIGHT} {...plot} markers={markers} describeX={(x) => `env steps ${formatValue(x)}`} />
        ) : (
          <div style={{ height: SCHEDULE_HEIGHT }} />
        )}
      </div>
      <p className="muted small">{usesHead ? 'σ bounds of the learnable noise head' : 'noise level a'} over the run's {formatCount(total)} env steps; the red line is now.</p>
    </section>
  );
}
