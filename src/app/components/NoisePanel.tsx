import { useMemo } from 'react';
import { CartesianGrid, Legend, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { CONFIG_FIELDS, deriveSizes, type NoiseConfig } from '../../core/config';
import { schedulePoints } from '../noise/schedule-points';
import { useRunStore } from '../store/run-slice';
import { errorText, trainerClient } from '../workers/trainer-client';

async function sendNoise(noise: Partial<NoiseConfig>): Promise<void> {
  const { setConfigNotice } = useRunStore.getState();
  try {
    await trainerClient().setNoise(noise);
    setConfigNotice(undefined);
  } catch (error) {
    setConfigNotice({ kind: 'error', text: errorText(error) });
  }
}

interface SliderProps {
  field: 'level' | 'std_min' | 'std_max' | 'decay_steps';
  label: string;
  min: number;
  max: number;
  step: number;
  value: number;
}

function Slider({ field, label, min, max, step, value }: SliderProps) {
  return (
    <label className="slider" title={CONFIG_FIELDS[`noise.${field}`].doc}>
      <span>{label}</span>
      <input type="range" min={min} max={max} step={step} value={value} data-testid={`noise-${field}`}
        onChange={(event) => void sendNoise({ [field]: Number(event.target.value) })} />
      <span className="mono" data-testid={`noise-${field}-value`}>{value}</span>
    </label>
  );
}

/** Exploration-noise controls; changes reach the worker at once and apply from the next rollout. */
export function NoisePanel() {
  const config = useRunStore((state) => state.config);
  const envSteps = useRunStore((state) => state.status?.envSteps ?? 0);
  const noise = config.noise;
  const total = useMemo(() => deriveSizes(config).totalEnvSteps, [config]);
  const points = useMemo(() => schedulePoints(config, total), [config, total]);
  const usesHead = noise.method === 'noise';
  return (
    <section className="panel" data-testid="noise-panel">
      <h2>Exploration noise</h2>
      <div className="form-grid">
        <label title={CONFIG_FIELDS['noise.method'].doc}>
          <span>method</span>
          <select value={noise.method} data-testid="noise-method" onChange={(event) => void sendNoise({ method: event.target.value as NoiseConfig['method'] })}>
            {CONFIG_FIELDS['noise.method'].values.map((method) => <option key={method} value={method}>{method}</option>)}
          </select>
        </label>
        <label title={CONFIG_FIELDS['noise.decay'].doc}>
          <span>decay</span>
          <select value={noise.decay} data-testid="noise-decay" onChange={(event) => void sendNoise({ decay: event.target.value as NoiseConfig['decay'] })}>
            {CONFIG_FIELDS['noise.decay'].values.map((decay) => <option key={decay} value={decay}>{decay}</option>)}
          </select>
        </label>
      </div>
      <Slider field="level" label="level a" min={0} max={noise.method === 'cps' ? 1 : 2} step={0.01} value={noise.level} />
      <Slider field="std_min" label="σ min" min={0.001} max={1} step={0.001} value={noise.std_min} />
      <Slider field="std_max" label="σ max" min={0.001} max={1} step={0.001} value={noise.std_max} />
      <Slider field="decay_steps" label="decay steps" min={0} max={Math.max(total, noise.decay_steps, 1000)} step={Math.max(1, Math.round(Math.max(total, 1000) / 200))} value={noise.decay_steps} />
      <div className="schedule-plot" data-testid="noise-schedule">
        <ResponsiveContainer width="100%" height={130}>
          <LineChart data={points} margin={{ top: 4, right: 8, bottom: 0, left: -14 }}>
            <CartesianGrid stroke="#eef0f3" vertical={false} />
            <XAxis dataKey="envSteps" type="number" domain={['dataMin', 'dataMax']} tick={{ fontSize: 10 }} tickCount={4} />
            <YAxis tick={{ fontSize: 10 }} width={44} />
            <Tooltip />
            <Legend wrapperStyle={{ fontSize: 10 }} />
            {usesHead ? (
              <>
                <Line dataKey="stdMax" name="σ max" stroke="#047857" dot={false} isAnimationActive={false} />
                <Line dataKey="stdMin" name="σ min" stroke="#94a3b8" dot={false} isAnimationActive={false} />
              </>
            ) : (
              <Line dataKey="level" name="level a" stroke="#047857" dot={false} isAnimationActive={false} />
            )}
            <ReferenceLine x={envSteps} stroke="#dc2626" strokeDasharray="3 3" label={{ value: 'now', fontSize: 10, position: 'insideTopRight' }} />
          </LineChart>
        </ResponsiveContainer>
      </div>
      <p className="muted small">{usesHead ? 'σ bounds of the learnable noise head' : 'noise level a'} over the run's {total.toLocaleString()} env steps; the red line is now.</p>
    </section>
  );
}
