import type { MetricRecord } from '../metrics/metric-keys';

/**
 * Where an iteration's time goes. On wasm and cpu every op runs when it is called, so a phase's
 * time is its own; on webgpu the GPU's share lands in the phase that waits for a readback.
 */
export const ITERATION_PHASES = ['env', 'policy', 'value', 'forward', 'backward', 'optimizer', 'data'] as const;
export type IterationPhase = (typeof ITERATION_PHASES)[number];

const PHASE_METRIC = {
  env: 'perf/env_s',
  policy: 'perf/policy_s',
  value: 'perf/value_s',
  forward: 'perf/forward_s',
  backward: 'perf/backward_s',
  optimizer: 'perf/optimizer_s',
  data: 'perf/data_s',
} as const satisfies Record<IterationPhase, keyof MetricRecord>;

/** Seconds per phase, summed over one iteration. */
export class PhaseTimes {
  private readonly seconds = new Map<IterationPhase, number>();

  constructor(readonly clock: () => number) {}

  add(phase: IterationPhase, seconds: number): void {
    this.seconds.set(phase, (this.seconds.get(phase) ?? 0) + seconds);
  }

  /** Runs `body` and charges its wall-clock time to `phase`. */
  async time<T>(phase: IterationPhase, body: () => Promise<T>): Promise<T> {
    const started = this.clock();
    try {
      return await body();
    } finally {
      this.add(phase, (this.clock() - started) / 1000);
    }
  }

  /** The synchronous twin of `time`, for work inside tf.tidy or tf.variableGrads. */
  timeSync<T>(phase: IterationPhase, body: () => T): T {
    const started = this.clock();
    try {
      return body();
    } finally {
      this.add(phase, (this.clock() - started) / 1000);
    }
  }

  /** `perf/<phase>_s` for every phase (0 where nothing was charged). */
  metrics(): MetricRecord {
    const record: MetricRecord = {};
    for (const phase of ITERATION_PHASES) record[PHASE_METRIC[phase]] = this.seconds.get(phase) ?? 0;
    return record;
  }
}
