import { memo, useEffect, useMemo, useState } from 'react';
import { CartesianGrid, ComposedChart, ErrorBar, Line, ResponsiveContainer, Scatter, XAxis, YAxis } from 'recharts';
import type { ChainSample } from '../../protocol/trainer-api';
import { useEpisodeStore } from '../store/episode-slice';
import { useRunStore } from '../store/run-slice';
import { trainerClient } from '../workers/trainer-client';
import { useLatestRequest } from '../workers/use-latest-request';
import { bandPoints, chainKey, chainRows, finalSpread, positionLabels } from './chain-series';
import { chainRequest, chainSourceLabel, useChainSource } from './chain-source';

const CHAIN_COUNT = 16;
/** Fixed, so a redraw after a noise change differs only by the new settings. */
const CHAIN_SEED = 0;

/** Test builds expose the last sample as plain arrays for the e2e specs. */
function exposeForTests(sample: ChainSample): void {
  if (import.meta.env.MODE !== 'e2e') return;
  (window as unknown as { __flowtuneChains?: unknown }).__flowtuneChains = {
    ...sample,
    chains: Array.from(sample.chains), odeChain: Array.from(sample.odeChain), denoiseInds: Array.from(sample.denoiseInds),
    means: Array.from(sample.means), stds: Array.from(sample.stds),
  };
}

function formatTick(value: number): string {
  return Number.isFinite(value) ? Number(value.toPrecision(3)).toString() : String(value);
}

interface DimChartProps {
  sample: ChainSample;
  position: number;
  dim: number;
}

/** x_k over k for one action dim: thin chains, the ODE chain bold, μ ± std at stochastic steps. */
const DimChart = memo(function DimChart({ sample, position, dim }: DimChartProps) {
  const rows = useMemo(() => chainRows(sample, position, dim), [sample, position, dim]);
  const band = useMemo(() => bandPoints(sample, position, dim), [sample, position, dim]);
  return (
    <figure className="chart" data-testid={`chain-dim-${dim}`}>
      <figcaption><span className="chart-title">action dim {dim}</span><span className="chart-value">x_k at position {position}</span></figcaption>
      <ResponsiveContainer width="100%" height={170}>
        <ComposedChart data={rows} margin={{ top: 4, right: 8, bottom: 0, left: -12 }}>
          <CartesianGrid stroke="#e5e7eb" strokeDasharray="3 3" />
          <XAxis dataKey="k" type="number" domain={[0, sample.steps]} allowDecimals={false} tickCount={sample.steps + 1} fontSize={10} />
          <YAxis fontSize={10} tickFormatter={formatTick} domain={['auto', 'auto']} width={48} />
          {Array.from({ length: sample.count }, (_, chainIndex) => (
            <Line key={chainIndex} dataKey={chainKey(chainIndex)} stroke="#60a5fa" strokeOpacity={0.55} strokeWidth={1} dot={false} isAnimationActive={false} className="chain-line" />
          ))}
          <Line dataKey="ode" stroke="#b91c1c" strokeWidth={2.5} dot={false} isAnimationActive={false} className="chain-ode" />
          <Scatter data={band} dataKey="mean" fill="#7c3aed" shape="circle" isAnimationActive={false}>
            <ErrorBar dataKey="error" direction="y" stroke="#7c3aed" strokeWidth={1.5} width={5} />
          </Scatter>
        </ComposedChart>
      </ResponsiveContainer>
    </figure>
  );
});

/**
 * The denoising-chain view (DESIGN.md §1 journey 4): M chains of the current policy from one
 * x_0, re-sampled whenever the noise settings, the model, the iteration or the observation
 * source (an env, or a step of a replayed episode) change.
 */
export function ChainView() {
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
