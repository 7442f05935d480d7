/**
 * A checkpoint plus overrides → the run config in force (DESIGN.md §2 "The run layer").
 * The checkpoint fixes its shapes and what its policy sees; an override that contradicts
 * them is a ConfigError naming both values. Its K and executed steps are only defaults.
 */
import { configFromCheckpoint } from '../checkpoint/policy-checkpoint';
import type { FlowtuneMetadata } from '../checkpoint/metadata';
import { checkpointKind, gaussianArchitectureOf } from '../checkpoint/checkpoint-file';
import {
  applyOverrides, asRunOverrides, assertNoCheckpointConflicts, CHECKPOINT_SHAPE_KEYS, CONFIG_FIELDS, fieldValueProblem, formatFieldValue, getField,
  setField, validateConfig, type ConfigKey, type ConfigValue, type RunConfig, type RunOverrides,
} from '../config';
import { controlForActionDim } from '../envs/task-controls';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A value the checkpoint's stored run config holds for `key`, when it holds a valid one. */
function storedValue<K extends ConfigKey>(metadata: FlowtuneMetadata, key: K): ConfigValue<K> | undefined {
  const [section, leaf] = key.split('.');
  const holder = metadata.config?.[section];
  const value = isObject(holder) ? holder[leaf] : undefined;
  return value !== undefined && fieldValueProblem(key, value) === null ? value as ConfigValue<K> : undefined;
}

/**
 * `base` with every field the checkpoint decides set to the checkpoint's value: the architecture,
 * K and executed steps, the velocity net and the observation (configFromCheckpoint), and the action
 * space. Where the file does not say, the field's default stands in, never `base`'s value, which
 * may already carry the overrides being checked.
 */
export function checkpointRunConfig(base: RunConfig, metadata: FlowtuneMetadata): RunConfig {
  if (checkpointKind(metadata) === 'gaussian') return gaussianRunConfig(base, metadata);
  let config = configFromCheckpoint(base, metadata);
  const kind = checkpointKind(metadata);
  config = { ...config, policy: { ...config.policy, kind } };
  const decide = <K extends ConfigKey>(key: K, value: ConfigValue<K> | undefined) => {
    config = setField(config, key, value ?? storedValue(metadata, key) ?? (CONFIG_FIELDS[key].default as ConfigValue<K>));
  };
  // The action size tells the control mode apart (4-D Cartesian, 8-D joint).
  const actionSize = metadata.shape_meta.action.shape[0];
  decide('env.control_mode', controlForActionDim(config.task, actionSize));
  return config;
}

/**
 * What a Gaussian checkpoint decides: policy.kind=gaussian, one action per decision on the current
 * state observation, and its hidden widths.
 */
function gaussianRunConfig(base: RunConfig, metadata: FlowtuneMetadata): RunConfig {
  const architecture = gaussianArchitectureOf(metadata);
  return {
    ...base,
    task: metadata.task as RunConfig['task'],
    policy: { ...base.policy, kind: 'gaussian', horizon: 1, n_action_steps: 1, n_obs_steps: 1, gaussian_hidden: [...architecture.hidden] },
    env: { ...base.env, obs_type: 'state' },
  };
}

/** The config a run from this checkpoint uses: the checkpoint's fields, then every override, validated. */
export function runConfigForCheckpoint(base: RunConfig, metadata: FlowtuneMetadata, overrides: readonly string[] | RunOverrides): RunConfig {
  const implied = checkpointRunConfig(base, metadata);
  assertNoCheckpointConflicts(implied, overrides);
  return validateConfig(applyOverrides(implied, asRunOverrides(overrides).overrides));
}

/** Throws the same ConfigError when a whole config (the studio's Config tab) changes a field the checkpoint fixes. */
export function assertConfigFitsCheckpoint(config: RunConfig, metadata: FlowtuneMetadata): void {
  const asOverrides = CHECKPOINT_SHAPE_KEYS.map((key: ConfigKey) => `${key}=${formatFieldValue(getField(config, key))}`);
  assertNoCheckpointConflicts(checkpointRunConfig(config, metadata), asOverrides);
}
