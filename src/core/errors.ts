/**
 * Named errors (DESIGN.md §9). Code that crosses comlink branches on `name`,
 * because `instanceof` does not survive structured cloning.
 */
export type FlowtuneErrorName = 'ConfigError' | 'EnvError' | 'CheckpointError' | 'ShapeError' | 'TrainingError' | 'ImportError' | 'DemosError' | 'TaskError' | 'BackendError';

abstract class FlowtuneError extends Error {
  abstract override readonly name: FlowtuneErrorName;
}

/** A config field has a bad value; the message names the field and the allowed values. */
export class ConfigError extends FlowtuneError {
  override readonly name = 'ConfigError' as const;
  constructor(readonly field: string, message: string) {
    super(message);
  }
}

/** A tensor or array has the wrong shape; the message names the argument and both shapes. */
export class ShapeError extends FlowtuneError {
  override readonly name = 'ShapeError' as const;
  constructor(readonly field: string, message: string) {
    super(message);
  }
}

/** An environment received bad input or failed; the message names the env index. */
export class EnvError extends FlowtuneError {
  override readonly name = 'EnvError' as const;
  constructor(message: string, readonly envIndex?: number) {
    super(message);
  }
}

/** A checkpoint cannot be used; the message is one sentence naming the problem. */
export class CheckpointError extends FlowtuneError {
  override readonly name = 'CheckpointError' as const;
}

/** Training cannot go on (for example, repeated non-finite updates, whose `reason` says so). */
export class TrainingError extends FlowtuneError {
  override readonly name = 'TrainingError' as const;
  constructor(message: string, readonly reason?: 'nonfinite-updates') {
    super(message);
  }
}

/** A dropped run or sweep folder cannot be imported; the message is one sentence naming the file. */
export class ImportError extends FlowtuneError {
  override readonly name = 'ImportError' as const;
}

/** A demonstration file or set cannot be used (corrupt, or for another task or observation); one sentence. */
export class DemosError extends FlowtuneError {
  override readonly name = 'DemosError' as const;
}

/** A task module or folder breaks the task contract (DESIGN.md §13); one sentence naming the file and field. */
export class TaskError extends FlowtuneError {
  override readonly name = 'TaskError' as const;
}

/** A tfjs backend cannot start or none can be chosen; one sentence naming the backend and the reason. */
export class BackendError extends FlowtuneError {
  override readonly name = 'BackendError' as const;
  constructor(message: string, readonly backend?: string) {
    super(message);
  }
}

const FLOWTUNE_ERROR_NAMES: ReadonlySet<string> = new Set<FlowtuneErrorName>([
  'ConfigError', 'EnvError', 'CheckpointError', 'ShapeError', 'TrainingError', 'ImportError', 'DemosError', 'TaskError', 'BackendError',
]);

/** True for any named Flowtune error, also after a trip through structured clone. */
export function isFlowtuneError(error: unknown): error is Error & { name: FlowtuneErrorName } {
  return typeof error === 'object' && error !== null && FLOWTUNE_ERROR_NAMES.has((error as { name?: string }).name ?? '');
}
