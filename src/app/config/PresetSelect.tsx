import {
  checkpointFixedKeys, PRESET_NAMES, PRESETS, defaultConfig, diffConfig, matchingPreset, presetConfigOver, presetNamed, type ConfigKey, type RunConfig,
} from '../../core/config';
import { useRunStore } from '../store/run-slice';
import { errorText, trainerClient } from '../workers/trainer-client';

/**
 * Replaces the config with a preset's (the defaults plus its overrides, on the current task), the way
 * a field edit is sent. The fields a loaded checkpoint fixes stay, unless the preset sets them, which
 * the trainer then refuses with a sentence naming both values.
 */
export async function commitPreset(config: RunConfig, name: string, kept: readonly ConfigKey[]): Promise<void> {
  const { setConfigNotice } = useRunStore.getState();
  try {
    await trainerClient().setConfig(presetConfigOver(presetNamed(name), config, kept));
    setConfigNotice(undefined);
  } catch (error) {
    setConfigNotice({ kind: 'error', text: errorText(error) });
  }
}

/** The preset menu: each preset with its one-line doc; shows the preset in force, if the config is one. */
export function PresetSelect({ config }: { config: RunConfig }) {
  // With a checkpoint loaded the preset keeps the fields it fixes; a fresh policy takes the preset's architecture.
  const fromCheckpoint = useRunStore((state) => state.model?.kind === 'checkpoint');
  const kept = fromCheckpoint ? checkpointFixedKeys(config) : [];
  const current = matchingPreset(config, kept) ?? '';
  const changed = diffConfig(defaultConfig(), config).length;
  return (
    <label className="config-field config-preset" title="Sets every field to the defaults plus the preset's overrides; the task and the loaded checkpoint's architecture stay.">
      <span>Preset</span>
      <select value={current} data-testid="config-preset" onChange={(event) => void commitPreset(config, event.target.value, kept)}>
        {current === '' && <option value="" disabled>custom ({changed} fields changed)</option>}
        {PRESET_NAMES.map((name) => <option key={name} value={name}>{name}: {PRESETS[name].doc}</option>)}
      </select>
    </label>
  );
}
