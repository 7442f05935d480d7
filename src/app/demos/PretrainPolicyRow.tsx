import { useState } from 'react';
import { CONFIG_FIELDS, formatFieldValue } from '../../core/config';
import { commitField } from '../components/ConfigPanel';
import { usePolicyKind } from '../policy/use-policy-kind';
import { selectOccupied, useRecipeStore } from '../store/recipe-slice';
import { useRunStore } from '../store/run-slice';

/** The families stage 1 pretrains (DESIGN.md §12, §17); a Gaussian policy has no BC stage here. */
const FAMILIES = [
  { kind: 'flow', label: 'flow matching' },
  { kind: 'diffusion', label: 'diffusion (DPPO)' },
] as const;

/**
 * Which policy stage 1 makes: the config's policy.kind and its chain length, set here as in the
 * Config tab (same fields, same validation). A diffusion policy is trained for its T steps; a
 * flow policy samples with any K later.
 */
export function PretrainPolicyRow() {
  const kind = usePolicyKind();
  const steps = useRunStore((state) => state.config.policy.denoise_steps);
  const busy = useRecipeStore(selectOccupied) !== undefined;
  const [draft, setDraft] = useState<string>();
  const commit = (key: 'policy.kind' | 'policy.denoise_steps', text: string) => void commitField(useRunStore.getState().config, key, text);
  const commitSteps = () => {
    if (draft !== undefined && draft !== formatFieldValue(steps)) commit('policy.denoise_steps', draft);
    setDraft(undefined);
  };
  return (
    <div className="recipe-form" data-testid="pretrain-policy">
      <label title={CONFIG_FIELDS['policy.kind'].doc}>
        <span>policy</span>
        <select value={kind} disabled={busy} style={{ width: '100%' }} data-testid="pretrain-kind" onChange={(event) => commit('policy.kind', event.target.value)}>
          {FAMILIES.map((family) => <option key={family.kind} value={family.kind}>{family.label}</option>)}
          {kind === 'gaussian' && <option value="gaussian" disabled>Gaussian (no BC stage)</option>}
        </select>
      </label>
      <label title={kind === 'diffusion' ? 'T, the DDPM steps the ε net is trained for (policy.denoise_steps; DPPO\'s Gym configs use 20). Fixed once trained.' : CONFIG_FIELDS['policy.denoise_steps'].doc}>
        <span>{kind === 'diffusion' ? 'diffusion steps T' : 'denoising steps K'}</span>
        <input type="number" min={1} step={1} value={draft ?? steps} disabled={busy} data-testid="pretrain-denoise-steps"
          onChange={(event) => setDraft(event.target.value)} onBlur={commitSteps} onKeyDown={(event) => { if (event.key === 'Enter') commitSteps(); }} />
      </label>
    </div>
  );
}
