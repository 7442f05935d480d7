import { useState } from 'react';
import {
  CONFIG_KEYS, cloneConfig, defaultConfig, describeFieldAllowed, diffConfig, fieldGroup, fieldSpec, formatFieldValue, getField,
  listConfigProblems, parseFieldValue, setField, type ConfigGroup, type ConfigKey, type RunConfig, type TaskName,
} from '../../core/config';
import { ConfigWarningList } from '../config/ConfigWarningList';
import { PresetSelect } from '../config/PresetSelect';
import { useRunStore } from '../store/run-slice';
import { usePolicyKind } from '../policy/use-policy-kind';
import { errorText, trainerClient } from '../workers/trainer-client';

const GROUPS: { group: ConfigGroup; title: string }[] = [
  { group: 'run', title: 'Run' },
  { group: 'policy', title: 'Policy' },
  { group: 'noise', title: 'Noise' },
  { group: 'ppo', title: 'PPO' },
  { group: 'dppo', title: 'DPPO' },
  { group: 'advantages', title: 'Advantages' },
  { group: 'env', title: 'Env' },
  { group: 'eval', title: 'Eval' },
  { group: 'video', title: 'Video' },
];

/** Validates one edited field against the whole config; sends it to the worker only when valid. */
export async function commitField(config: RunConfig, key: ConfigKey, text: string): Promise<void> {
  const { setConfigNotice } = useRunStore.getState();
  try {
    const value = parseFieldValue(key, text);
    if (key === 'task') {
      // Another task keeps the observation kind; the task picker switches both.
      await trainerClient().selectTask(value as TaskName, config.env.obs_type);
      setConfigNotice(undefined);
      return;
    }
    const next = setField(cloneConfig(config), key, value as never);
    const problems = listConfigProblems(next);
    if (problems.length > 0) {
      setConfigNotice({ kind: 'error', text: problems[0].message });
      return;
    }
    await trainerClient().setConfig(next);
    setConfigNotice(undefined);
  } catch (error) {
    setConfigNotice({ kind: 'error', text: errorText(error) });
  }
}

function FieldInput({ config, fieldKey, disabled }: { config: RunConfig; fieldKey: ConfigKey; disabled: boolean }) {
  const spec = fieldSpec(fieldKey);
  const current = formatFieldValue(getField(config, fieldKey));
  const [draft, setDraft] = useState<string | undefined>(undefined);
  const testId = `config-${fieldKey.replace('.', '-')}`;
  if (spec.kind === 'enum') {
    return (
      <select value={current} disabled={disabled} data-testid={testId} onChange={(event) => void commitField(config, fieldKey, event.target.value)}>
        {spec.values.map((value) => <option key={value} value={value}>{value}</option>)}
      </select>
    );
  }
  if (spec.kind === 'bool') {
    return <input type="checkbox" checked={current === 'true'} disabled={disabled} data-testid={testId} onChange={(event) => void commitField(config, fieldKey, String(event.target.checked))} />;
  }
  const commit = () => {
    if (draft !== undefined && draft !== current) void commitField(config, fieldKey, draft);
    setDraft(undefined);
  };
  return (
    <input className="mono" value={draft ?? current} disabled={disabled} data-testid={testId}
      onChange={(event) => setDraft(event.target.value)} onBlur={commit} onKeyDown={(event) => { if (event.key === 'Enter') commit(); }} />
  );
}

/** Every hyperparameter, grouped, with doc tooltips, validation messages, the diff from the defaults, presets and warnings for keys that do nothing. */
export function ConfigPanel() {
  const config = useRunStore((state) => state.config);
  const phase = useRunStore((state) => state.status?.phase ?? 'idle');
  const hasRun = phase !== 'idle';
  // A flow policy's noise fields and a diffusion policy's std floor apply live; every other field waits for Reset.
  const kind = usePolicyKind();
  const liveNote = kind === 'flow' ? 'Noise fields apply to the running run at once; other fields apply from the next Reset.'
    : kind === 'diffusion' ? 'dppo.min_sampling_std applies to the running run at once; other fields apply from the next Reset.'
      : 'Fields apply from the next Reset.';
  const changes = diffConfig(defaultConfig(), config);
  return (
    <section className="panel config-panel" data-testid="config-panel">
      <h2>Config</h2>
      <PresetSelect config={config} />
      {hasRun && <p className="muted small" data-testid="config-live-note">{liveNote}</p>}
      <details className="diff" data-testid="config-diff">
        <summary>Diff from defaults ({changes.length})</summary>
        <table className="mono small">
          <tbody>
            {changes.map((change) => (
              <tr key={change.key}><td>{change.key}</td><td className="muted">{formatFieldValue(change.from)}</td><td>→ {formatFieldValue(change.to)}</td></tr>
            ))}
          </tbody>
        </table>
      </details>
      {GROUPS.map(({ group, title }) => (
        <details key={group} className="config-group" open={group === 'run'}>
          <summary>{title}</summary>
          <div className="config-fields">
            {CONFIG_KEYS.filter((key) => fieldGroup(key) === group).map((key) => {
              const spec = fieldSpec(key);
              return (
                <label key={key} className="config-field" title={`${spec.doc}\nAllowed: ${describeFieldAllowed(key, config)}`}>
                  <span className="mono">{key.includes('.') ? key.slice(key.indexOf('.') + 1) : key}</span>
                  <FieldInput config={config} fieldKey={key} disabled={key === 'task' && hasRun} />
                </label>
              );
            })}
          </div>
        </details>
      ))}
      <ConfigWarningList config={config} />
    </section>
  );
}
