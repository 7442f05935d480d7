import { memo, useEffect, useMemo, useState } from 'react';
import type { ChainSample } from '../../protocol/trainer-api';
import { useChartFrame } from '../plot/use-chart-frame';
import { LinePlot, type PlotScales, type PlotSeries } from '../plot/LinePlot';
import { niceTicks } from '../plot/nice-ticks';
import { paddedDomain } from '../plot/scale';
import { useEpisodeStore } from '../store/episode-slice';
import { useRunStore, type RunState } from '../store/run-slice';
import { flowOnlyText } from '../policy/flow-only';
import { FlowOnlyPanel } from '../policy/FlowOnlyPanel';
import { usePolicyKind } from '../policy/use-policy-kind';
import { trainerClient } from '../workers/trainer-client';
import { useLatestRequest } from '../workers/use-latest-request';
import { bandPoints, chainAxis, chainValues, finalSpread, fineTunedSpan, positionLabels, type BandPoint } from './chain-series';
import { cameraImagesText, chainRequest, chainSourceLabel, useChainSource } from './chain-source';

const CHAIN_COUNT = 16;
/** Fixed, so a redraw after a noise change differs only by the new settings. */
const CHAIN_SEED = 0;
const CHART_HEIGHT = 170;
const BAND_COLOR = '#7c3aed';
const FINE_TUNED_COLOR = '#fef3c7';

/** Test builds expose the last sample as plain arrays for the e2e specs. */
function exposeForTests(sample: ChainSample): void {
  if (import.meta.env.MODE !== 'e2e') return;
  (window as unknown as { __flowtuneChains?: unknown }).__flowtuneChains = {
    ...sample,
    chains: Array.from(sample.chains), odeChain: Array.from(sample.odeChain), denoiseInds: Array.from(sample.denoiseInds),
    means: Array.from(sample.means), stds: Array.from(sample.stds),
  };
}

interface DimChartProps {
  sample: ChainSample;
  position: number;
  dim: number;
}

/** Above this many marks a chart draws them lighter, so a long chain's bands do not hide its lines. */
const DENSE_BAND = 64;

/** μ ± std of each stochastic step: a dot at the mean and a bar over one std each side. */
function bandMarks(band: readonly BandPoint[], { x, y }: PlotScales) {
  const dense = band.length > DENSE_BAND;
  return (
    <g className="chain-band">
      {band.map((point) => (
        <g key={`${point.chainIndex}-${point.k}`}>
          <line x1={x(point.k)} x2={x(point.k)} y1={y(point.mean - point.error[0])} y2={y(point.mean + point.error[1])} stroke={BAND_COLOR} strokeWidth={dense ? 1 : 1.5} strokeOpacity={dense ? 0.35 : 1} />
          <circle cx={x(point.k)} cy={y(point.mean)} r={dense ? 1.8 : 2.5} fill={BAND_COLOR} fillOpacity={dense ? 0.75 : 1} />
        </g>
      ))}
    </g>
  );
}

/** A diffusion chain's fine-tuned steps, shaded behind the lines: DPPO trains only these (the rest run the frozen base net). */
function fineTunedShade(span: [number, number], yDomain: readonly [number, number], { x, y }: PlotScales) {
  const [top, bottom] = [y(yDomain[1]), y(yDomain[0])];
  return (
    <g className="chain-fine-tuned">
      <rect x={x(span[0])} y={top} width={x(span[1]) - x(span[0])} height={bottom - top} fill={FINE_TUNED_COLOR} />
      <text x={x(span[1]) - 3} y={top + 9} textAnchor="end" fontSize={10} fill="#92400e">fine-tuned</text>
    </g>
  );
}

/** The deterministic chain's name in the legend: the flow ODE, or the diffusion policy's DDIM / DDPM mean chain. */
function deterministicName(sample: ChainSample): string {
  if (sample.family === 'flow') return 'ODE chain';
  return sample.ddimSteps > 0 ? 'DDIM chain (η = 0)' : 'DDPM mean chain';
}

/** x over the chain for one action dim: thin chains, the deterministic chain bold, μ ± std at stochastic steps. */
const DimChart = memo(function DimChart({ sample, position, dim }: DimChartProps) {
  const [frameRef, frame] = useChartFrame<HTMLElement>();
  const axis = useMemo(() => chainAxis(sample), [sample]);
  const plot = useMemo(() => {
    const values = chainValues(sample, position, dim);
    const band = bandPoints(sample, position, dim);
    const span = fineTunedSpan(sample);
    const series: PlotSeries[] = [
      ...values.chains.map((ys, chainIndex): PlotSeries => ({ key: `chain${chainIndex}`, label: `chain ${chainIndex}`, ys, color: '#60a5fa', opacity: 0.55, className: 'chain-line', readout: false })),
      { key: 'ode', label: deterministicName(sample), ys: values.ode, color: '#b91c1c', strokeWidth: 2.5, className: 'chain-ode' },
    ];
    const yDomain = paddedDomain([...values.chains.flat(), ...values.ode, ...band.flatMap((point) => [point.mean - point.error[0], point.mean + point.error[1]])]);
    const xs = values.ode.map((_, stepIndex) => stepIndex);
    return {
      xs, series, yDomain, xDomain: [0, sample.steps] as [number, number], xTicks: axis.ticks, yTicks: niceTicks(yDomain[0], yDomain[1], 5),
      overlay: (scales: PlotScales) => bandMarks(band, scales),
      underlay: span ? (scales: PlotScales) => fineTunedShade(span, yDomain, scales) : undefined,
    };
  }, [sample, position, dim, axis]);
  return (
    <figure ref={frameRef} className="chart" data-testid={`chain-dim-${dim}`}>
      <figcaption><span className="chart-title">action dim {dim}</span><span className="chart-value">{axis.name} at position {position}</span></figcaption>
      {frame.width > 0 ? (
        <LinePlot width={frame.width} height={CHART_HEIGHT} {...plot} verticalGrid dashedGrid describeX={axis.describe} formatXTick={axis.label} />
      ) : (
        <div style={{ height: CHART_HEIGHT }} />
      )}
    </figure>
  );
});

/** The settings a sample was drawn under, in one line. */
function sampleMeta(sample: ChainSample): string {
  const source = `obs ${sample.obsSource} (env ${sample.envIndex}) · model ${sample.model}`;
  if (sample.family === 'flow') return `${sample.count} chains · ${sample.method} ${sample.mode} · a ${sample.level} · K ${sample.steps} · ${source}`;
  const chain = sample.ddimSteps > 0 ? `DDIM ${sample.ddimSteps} of T ${sample.denoiseSteps}` : `DDPM T ${sample.denoiseSteps}`;
  return `${sample.count} chains · ${chain} · K' ${sample.ftSteps} fine-tuned · std floor ${sample.minSamplingStd} · ${source}`;
}

/** What the lines and marks are. */
function legendText(sample: ChainSample): string {
  if (sample.family === 'flow') {
    return `Thin blue: ${sample.count} chains from one x_0; bold red: the ODE chain; violet: μ ± std of each stochastic step, at the element it produced.`;
  }
  const base = sample.steps - sample.ftSteps;
  const steps = base > 0 ? `the first ${base} step${base === 1 ? '' : 's'} by the frozen base net, the shaded last ${sample.ftSteps} by the fine-tuned net` : 'every step by the fine-tuned net';
  return `Thin blue: ${sample.count} chains from one x_T, sampled as rollouts are: ${steps}, each std at least the floor ${sample.minSamplingStd}. `
    + `Bold red: the ${deterministicName(sample)} from the same x_T, which evaluation and the ONNX export run. Violet: μ ± std of each step, where its sample lands. a: the action.`;
}

/** The denoising-chain view of a flow or diffusion policy; a Gaussian policy has no chain, and the panel says so. */
export function ChainView() {
  const reason = flowOnlyText(usePolicyKind(), 'chains');
  return reason ? <FlowOnlyPanel title="Denoising chains" testId="chain-view" text={reason} /> : <ChainPanel />;
}

/** What re-samples the chains: the live sampling settings (noise, DPPO's std floor), as one string. */
const samplingKey = (state: RunState) => JSON.stringify([state.config.noise, state.config.dppo.min_sampling_std, state.config.policy.ddim_steps]);

/**
 * The denoising-chain view (DESIGN.md §1 journey 4, §17): M chains of the current policy from one
 * start, re-sampled whenever the sampling settings, the model, the iteration or the observation
 * source (an env, or a step of a replayed episode) change.
 */
function ChainPanel() {
  const numEnvs = useRunStore((state) => state.config.num_envs);
  const sampling = useRunStore(samplingKey);
  const model = useRunStore((state) => state.model);
  const iteration = useRunStore((state) => state.status?.iteration ?? 0);
  const [envIndex, setEnvIndex] = useState(0);
  const [position, setPosition] = useState(0);
  const source = useChainSource((state) => state.source);
  const showLiveEnv = useChainSource((state) => state.showLiveEnv);
  const episodeGone = useEpisodeStore((state) => source.kind === 'episode' && !state.episodes.some((episode) => episode.id === source.id));

  // A reset or a new run empties the episode store: fall back to the live env.
  useEffect(() => {
    if (episodeGone) showLiveEnv();
  }, [episodeGone, showLiveEnv]);

  const { value: sample, problem, pending } = useLatestRequest(
    JSON.stringify([sampling, model, iteration, envIndex, source]),
    () => trainerClient().sampleChains(chainRequest(source, envIndex, CHAIN_COUNT, CHAIN_SEED)),
    exposeForTests,
  );

  const labels = useMemo(() => (sample ? positionLabels(sample.horizon, sample.nActionSteps) : []), [sample]);
  const shownPosition = sample ? Math.min(position, sample.horizon - 1) : 0;
  const spread = useMemo(() => (sample ? finalSpread(sample) : undefined), [sample]);

  return (
    <section className="panel chain-view" data-testid="chain-view" data-pending={pending ? '1' : '0'} data-family={sample?.family}
      data-method={sample?.family === 'flow' ? sample.method : undefined} data-level={sample?.family === 'flow' ? sample.level : undefined}
      data-floor={sample?.family === 'diffusion' ? sample.minSamplingStd : undefined} data-source={source.kind}>
      <h2>Denoising chains</h2>
      <div className="chart-toolbar" data-testid="chain-source">
        <span>observation: <strong data-testid="chain-source-label">{sample ? chainSourceLabel(sample) : '–'}</strong></span>
        {source.kind === 'episode' && (
          <button data-testid="chain-source-live" onClick={showLiveEnv}>Back to live env {envIndex}</button>
        )}
      </div>
      <div className="chart-toolbar">
        <label>
          env
          <input type="number" min={0} max={numEnvs - 1} value={envIndex} style={{ width: 48 }} data-testid="chain-env" disabled={source.kind === 'episode'}
            onChange={(event) => setEnvIndex(Math.max(0, Math.min(numEnvs - 1, Number(event.target.value) || 0)))} />
        </label>
        <label>
          horizon position
          <select value={shownPosition} data-testid="chain-position" onChange={(event) => setPosition(Number(event.target.value))}>
            {labels.map((entry) => <option key={entry.position} value={entry.position}>{entry.label}</option>)}
          </select>
        </label>
        {sample && <span className="mono" data-testid="chain-meta">{sampleMeta(sample)}</span>}
      </div>
      {problem && <p className="error-banner" role="alert" data-testid="chain-error">{problem}</p>}
      {sample && (
        <>
          {sample.cameraImages && <p className="muted small" data-testid="chain-camera-images" data-images={sample.cameraImages}>{cameraImagesText(sample)}</p>}
          <p className="muted">
            {legendText(sample)}{' '}
            Spread of the {sample.family === 'flow' ? 'x_K' : 'actions'} across chains: <span className="mono" data-testid="chain-spread">{spread?.toPrecision(4)}</span>
          </p>
          <div className="chart-grid" data-testid="chain-charts">
            {Array.from({ length: sample.actionDim }, (_, dim) => <DimChart key={dim} sample={sample} position={shownPosition} dim={dim} />)}
          </div>
        </>
      )}
    </section>
  );
}
