import { useState } from 'react';
import { SWEEP_PRESET_NAMES, SWEEP_PRESETS, type SweepPresetName } from '../../core/sweep/sweep-presets';
import type { QueueStatus } from '../../protocol/trainer-api';
import { useCompareStore } from '../store/compare-slice';
import { useRunStore } from '../store/run-slice';
import { parseSeeds, queueFamilyNote, variantTooltip } from './queue-request';
import { cancelQueue, startQueue } from './runs-actions';

function QueueItems({ queue }: { queue: QueueStatus }) {
  return (
    <div className="queue-items" data-testid="queue-items" data-phase={queue.phase}>
      <p className="muted small">{queue.preset} on {queue.task}: {queue.phase}</p>
      <ol>
        {queue.items.map((item, index) => (
          <li key={`${item.variant}-${item.seed}`} className={`queue-item queue-${item.state}`} data-testid="queue-item" data-state={item.state}
            aria-current={index === queue.currentIndex ? 'step' : undefined}>
            <span className="mono">{item.variant}</span> seed {item.seed} <span className={`tag queue-state queue-state-${item.state}`}>{item.state}</span>
            {item.error && <div className="queue-error">{item.error}</div>}
          </li>
        ))}
      </ol>
    </div>
  );
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/**
 * Runs a sweep preset's chosen variants × seeds one after another in the trainer worker
 * (DESIGN.md §11), and lists the queue's items with their state.
 */
export function QueueForm() {
  const queue = useCompareStore((state) => state.queue);
  // A loaded checkpoint fixes policy.kind in the config, so the config names the selected checkpoint's family.
  const checkpointKind = useRunStore((state) => ((state.nextModel ?? state.model)?.kind === 'checkpoint' ? state.config.policy.kind : undefined));
  const [preset, setPreset] = useState<SweepPresetName>(SWEEP_PRESET_NAMES[0]);
  const [checked, setChecked] = useState<string[]>([]);
  const [seedsText, setSeedsText] = useState('0');
  const [notice, setNotice] = useState<string>();
  const [busy, setBusy] = useState(false);
  const variants = SWEEP_PRESETS[preset].variants;
  const familyNote = queueFamilyNote(preset, checkpointKind);
  const seeds = parseSeeds(seedsText);
  const running = queue?.phase === 'running';
  const toggle = (name: string, on: boolean) => setChecked((names) => (on ? [...names, name] : names.filter((other) => other !== name)));
  const start = async () => {
    if ('problem' in seeds) return setNotice(seeds.problem);
    if (checked.length === 0) return setNotice('Check at least one variant to queue.');
    setBusy(true);
    // The worker runs the variants in the preset's order, whatever order they were checked in.
    const ordered = variants.map((variant) => variant.name).filter((name) => checked.includes(name));
    setNotice(await startQueue({ preset, variants: ordered, seeds: seeds.seeds }));
    setBusy(false);
  };
  const cancel = async () => {
    setBusy(true);
    setNotice(await cancelQueue());
    setBusy(false);
  };
  return (
    <section className="panel" data-testid="queue-form">
      <h2>Queue</h2>
      <label className="queue-field">
        preset
        <select value={preset} data-testid="queue-preset" disabled={running}
          onChange={(event) => { setPreset(event.target.value as SweepPresetName); setChecked([]); }}>
          {SWEEP_PRESET_NAMES.map((name) => <option key={name} value={name} title={SWEEP_PRESETS[name].doc}>{name}</option>)}
        </select>
      </label>
      <div className="queue-variants-head">
        <span className="muted">variants ({checked.length} of {variants.length})</span>
        <button type="button" className="link" data-testid="queue-all" onClick={() => setChecked(variants.map((variant) => variant.name))}>all</button>
        <button type="button" className="link" data-testid="queue-none" onClick={() => setChecked([])}>none</button>
      </div>
      <div className="queue-variants" data-testid="queue-variants">
        {variants.map((variant) => (
          <label key={variant.name} title={variantTooltip(preset, variant.name)}>
            <input type="checkbox" data-testid="queue-variant" value={variant.name} checked={checked.includes(variant.name)}
              onChange={(event) => toggle(variant.name, event.target.checked)} />
            <span className="mono">{variant.name}</span>
          </label>
        ))}
      </div>
      <label className="queue-field">
        seeds
        <input type="text" value={seedsText} data-testid="queue-seeds" aria-invalid={'problem' in seeds} placeholder="0, 1, 2"
          onChange={(event) => setSeedsText(event.target.value)} />
      </label>
      <p className="muted small">
        {plural(checked.length, 'variant')} × {'seeds' in seeds ? plural(seeds.seeds.length, 'seed') : '? seeds'}. Each run's config is the preset's baseline for every key
        you left at its default, then your config, then the variant's own keys; each run starts from the selected model.
      </p>
      {familyNote && <p className="notice small" data-testid="queue-family">{familyNote}</p>}
      <div className="row">
        <button className="primary" data-testid="queue-start" disabled={running || busy} onClick={() => void start()}>Start queue</button>
        {running && <button data-testid="queue-cancel" disabled={busy} onClick={() => void cancel()}>Cancel</button>}
      </div>
      {notice && <p className="notice notice-error" role="alert" data-testid="queue-notice">{notice}</p>}
      {queue && <QueueItems queue={queue} />}
    </section>
  );
}
