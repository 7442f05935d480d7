import { STUDIO_HOST, configWarnings, defaultConfig, diffConfig, type RunConfig } from '../../core/config';

/** Settings that are valid but do nothing here, as the command line warns about them; the keys set are those that differ from the defaults. */
export function ConfigWarningList({ config }: { config: RunConfig }) {
  const given = diffConfig(defaultConfig(), config).map((change) => change.key);
  const warnings = configWarnings(config, given, STUDIO_HOST);
  if (warnings.length === 0) return null;
  return (
    <ul className="small muted config-warnings" data-testid="config-warnings">
      {warnings.map((warning) => <li key={warning}>warning: {warning}</li>)}
    </ul>
  );
}
