import type { ConfigKey } from '../../core/config';
import { useCompareStore } from '../store/compare-slice';

/** The overlay's grouping: none, or one of the keys on which the overlaid runs differ. */
export function GroupBySelect({ keys, value }: { keys: readonly ConfigKey[]; value: ConfigKey | undefined }) {
  return (
    <label title="Runs with the same value of this config key are drawn as one curve: their mean, with a band from the lowest to the highest run">
      group by
      <select value={value ?? ''} data-testid="group-by" onChange={(event) => useCompareStore.getState().setGroupBy((event.target.value || undefined) as ConfigKey | undefined)}>
        <option value="">none (every run)</option>
        {keys.map((key) => <option key={key} value={key}>{key}</option>)}
      </select>
    </label>
  );
}
