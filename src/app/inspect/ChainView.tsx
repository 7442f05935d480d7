import { memo, useEffect, useMemo, useState } from 'react';
import type { ChainSample } from '../../protocol/trainer-api';
import { useChartFrame } from '../plot/use-chart-frame';
import { LinePlot, type PlotScales, type PlotSeries } from '../plot/LinePlot';
import { niceTicks } from '../plot/nice-ticks';
import { paddedDomain } from '../plot/scale';
import { useEpisodeStore } from '../store/episode-slice';
import { useRunStore } from '../store/run-slice';
import { flowOnlyText } from '../policy/flow-only';
import { FlowOnlyPanel } from '../policy/FlowOnlyPanel';
import { usePolicyKind } from '../policy/use-policy-kind';
import { trainerClient } from '../workers/trainer-client';
import { useLatestRequest } from '../workers/use-latest-request';
import { bandPoints, chainValues, finalSpread, positionLabels, type BandPoint } from './chain-series';
import { chainRequest, chainSourceLabel, useChainSource } from './chain-source';

const CHAIN_COUNT = 16;
/** Fixed, so a redraw after a noise change differs only by the new settings. */
const CHAIN_SEED = 0;
const CHART_HEIGHT = 170;
const BAND_COLOR = '#7c3aed';

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

/** μ ± std of each stochastic step: a dot at the mean and a bar over one std each side. */
function bandMarks(band: readonly BandPoint[], { x, y }: PlotScales) {
  return (
    <g className="chain-band">
      {band.map((point) => (
        <g key={`${point.chainIndex}-${point.k}`}>
          <line x1={x(point.k)} x2={x(point.k)} y1={y(point.mean - point.error[0])} y2={y(point.mean + point.error[1])} stroke={BAND_COLOR} strokeWidth={1.5} />
          <circle cx={x(point.k)} cy={y(point.mean)} r={2.5} fill={BAND_COLOR} />
        </g>
      ))}
    </g>
  );
}

/** x_k over k for one action dim: thin chains, the ODE chain bold, μ ± std at stochastic steps. */
const DimChart = memo(function DimChart({ sample, position, dim }: DimChartProps) {
  const [frameRef, frame] = useChartFrame<HTMLElement>();
  const plot = useMemo(() => {
    const values = chainValues(sample, position, dim);
    const band = bandPoints(sample, position, dim);
    const series: PlotSeries[] = [
      ...values.chains.map((ys, chainIndex): PlotSeries => ({ key: `chain${chainIndex}`, label: `chain ${chainIndex}`, ys, color: '#60a5fa', opacity: 0.55, className: 'chain-line', readout: false })),
      { key: 'ode', label: 'ODE chain', ys: values.ode, color: '#b91c1c', strokeWidth: 2.5, className: 'chain-ode' },
    ];
    const yDomain = paddedDomain([...values.chains.flat(), ...values.ode, ...band.flatMap((point) => [point.mean - point.error[0], point.mean + point.error[1]])]);
    const xs = values.ode.map((_, stepIndex) => stepIndex);
    return {
      xs, series, yDomain, xDomain: [0, sample.steps] as [number, number], xTicks: xs, yTicks: niceTicks(yDomain[0], yDomain[1], 5),
      overlay: (scales: PlotScales) => bandMarks(band, scales),
    };
  }, [sample, position, dim]);
  return (
    <figure ref={frameRef} className="chart" data-testid={`chain-dim-${dim}`}>
      <figcaption><span className="chart-title">action dim {dim}</span><span className="chart-value">x_k at position {position}</span></figcaption>
      {frame.width > 0 ? (
        <LinePlot width={frame.width} height={CHART_HEIGHT} {...plot} verticalGrid dashedGrid describeX={(k) => `k = ${k}`} />
      ) : (
        <div style={{ height: CHART_HEIGHT }} />
      )}
    </figure>
  );
});

/** The denoising-chain view of a flow policy; another family has no chain, and the panel says so. */
export function ChainView() {
  const reason = flowOnlyText(usePolicyKind(), 'chains');
  return reason ? <FlowOnlyPanel title="Denoising chains" testId="chain-view" text={reason} /> : <FlowChainView />;
}

/**
 * The denoising-chain view (DESIGN.md §1 journey 4): M chains of the current policy from one
 * x_0, re-sampled whenever the noise settings, the model, the iteration or the observation
 * source (an env, or a step of a replayed episode) change.
 */
function FlowChainView() {
  const config = useRunStore((state) => state.config);
  const model = useRunStore((state) => state.model);
  const iteration = useRunStore((state) => state.status?.iteration ?? 0);
  const [envIndex, setEnvIndex] = useState(0);
  const [position, setPosition] = useState(0);
  const noiseKey = JSON.stringify(config.noise);
  const source = useChainSource((state) => state.source);
  const showLiveEnv = useChainSource((state) => state.showLiveEnv);
  const episodeGone = useEpisodeStore((state) => source.kind === 'episode' && !state.episodes.some((episode) => episode.id === source.id));

  // A reset or a new run empties the episode store: fall back to the live env.
  useEffect(() => {
    if (episodeGone) showLiveEnv();
  }, [episodeGone, showLiveEnv]);

  const { value: sample, problem, pending } = useLatestRequest(
    JSON.stringify([noiseKey, model, iteration, envIndex, source]),
    () => trainerClient().sampleChains(chainRequest(source, envIndex, CHAIN_COUNT, CHAIN_SEED)),
    exposeForTests,
  );

  const labels = useMemo(() => (sample ? positionLabels(sample.horizon, sample.nActionSteps) : []), [sample]);
  const shownPosition = sample ? Math.min(position, sample.horizon - 1) : 0;
  const spread = useMemo(() => (sample ? finalSpread(sample) : undefined), [sample]);

  return (
    <section className="panel chain-view" data-testid="chain-view" data-pending={pending ? '1' : '0'}
      data-method={sample?.method} data-level={sample?.level} data-source={source.kind}>
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
          <input type="number" min={0} max={config.num_envs - 1} value={envIndex} style={{ width: 48 }} data-testid="chain-env" disabled={source.kind === 'episode'}
            onChange={(event) => setEnvIndex(Math.max(0, Math.min(config.num_envs - 1, Number(event.target.value) || 0)))} />
        </label>
        <label>
          horizon position
          <select value={shownPosition} data-testid="chain-position" onChange={(event) => setPosition(Number(event.target.value))}>
            {labels.map((entry) => <option key={entry.position} value={entry.position}>{entry.label}</option>)}
          </select>
        </label>
        {sample && (
          <span className="mono" data-testid="chain-meta">
            {sample.count} chains · {sample.method} {sample.mode} · a {sample.level} · K {sample.steps} · obs {sample.obsSource} (env {sample.envIndex}) · model {sample.model}
          </span>
        )}
      </div>
      {problem && <p className="error-banner" role="alert" data-testid="chain-error">{problem}</p>}
      {sample && (
        <>
          <p className="muted">
            Thin blue: {sample.count} chains from one x_0; bold red: the ODE chain; violet: μ ± std of each stochastic step, at the element it produced.
            Spread of x_K across chains: <span className="mono" data-testid="chain-spread">{spread?.toPrecision(4)}</span>
          </p>
          <div className="chart-grid" data-testid="chain-charts">
            {Array.from({ length: sample.actionDim }, (_, dim) => <DimChart key={dim} sample={sample} position={shownPosition} dim={dim} />)}
          </div>
        </>
      )}
    </section>
  );
}
