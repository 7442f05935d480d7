/** A run's config in force is frozen: it changes only by replacement (setNoise, a rollback's actor_lr). */
import { cloneConfig } from './access';
import type { RunConfig } from './run-config';

/** Freezes `value` and every object inside it that is not frozen yet, in place. */
export function freezeDeep<T extends object>(value: T): T {
  Object.freeze(value);
  for (const inner of Object.values(value)) if (typeof inner === 'object' && inner !== null && !Object.isFrozen(inner)) freezeDeep(inner);
  return value;
}

/** A frozen deep copy, so the caller's object stays theirs. */
export function frozenConfig(config: RunConfig): RunConfig {
  return freezeDeep(cloneConfig(config));
}
