/**
 * Config ↔ URL hash, for shareable studio links. Only fields that differ from the
 * defaults are written, as `key=value` pairs joined by '&' (lists comma-joined).
 * Decoding starts from the defaults, applies the pairs, and validates.
 */
import { ConfigError } from '../errors';
import { defaultConfig } from './access';
import { diffConfig } from './diff';
import { formatFieldValue } from './field-values';
import { applyOverrides } from './overrides';
import type { RunConfig } from './run-config';
import { validateConfig } from './validate';

/** The hash text without the leading '#'; '' for the default config. */
export function encodeConfigHash(config: RunConfig): string {
  return diffConfig(defaultConfig(), config)
    .map(({ key, to }) => `${key}=${encodeURIComponent(formatFieldValue(to))}`)
    .join('&');
}

/** Parses a hash (with or without '#'), applies it to the defaults and validates; throws ConfigError. */
export function decodeConfigHash(hash: string): RunConfig {
  const body = hash.startsWith('#') ? hash.slice(1) : hash;
  const overrides: string[] = [];
  for (const pair of body.split('&')) {
    if (pair === '') continue;
    try {
      overrides.push(decodeURIComponent(pair));
    } catch {
      throw new ConfigError(pair, `URL hash part '${pair}' is not valid percent-encoding`);
    }
  }
  return validateConfig(applyOverrides(defaultConfig(), overrides));
}
