/**
 * What may change while a run trains (DESIGN.md §2 "the only live mutation", §1 journey 3): the exploration-noise
 * section, and a diffusion policy's rollout std floor, dppo.min_sampling_std (DPPO's exploration, §17). Each is read
 * when the next rollout starts; every other field waits for a new run.
 */
import type { ConfigKey, DppoConfig, NoiseConfig, RunConfig } from '../config/run-config';
import { fieldGroup } from '../config/fields';

/** A live change: any noise fields, and DPPO's sampling std floor. */
export interface LiveSettings {
  noise?: Partial<NoiseConfig>;
  dppo?: Partial<Pick<DppoConfig, 'min_sampling_std'>>;
}

/** The fields outside the noise section that apply live. */
export const LIVE_DPPO_KEYS = ['dppo.min_sampling_std'] as const satisfies readonly ConfigKey[];

/** Whether a running run takes a change of `key` from its next rollout. */
export function isLiveKey(key: ConfigKey): boolean {
  return fieldGroup(key) === 'noise' || (LIVE_DPPO_KEYS as readonly ConfigKey[]).includes(key);
}

/** Every live field of `config`, as a live run takes them from the next run's config. */
export function liveSettingsOf(config: RunConfig): Required<LiveSettings> {
  return { noise: config.noise, dppo: { min_sampling_std: config.dppo.min_sampling_std } };
}

/** `config` with `settings` in place (not validated); only live fields move, whatever else `settings` holds. */
export function withLiveSettings(config: RunConfig, settings: LiveSettings): RunConfig {
  const floor = settings.dppo?.min_sampling_std;
  return {
    ...config,
    noise: settings.noise ? { ...config.noise, ...settings.noise } : config.noise,
    dppo: floor === undefined ? config.dppo : { ...config.dppo, min_sampling_std: floor },
  };
}
