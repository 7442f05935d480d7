import * as tf from '@tensorflow/tfjs';
import { CheckpointError } from '../errors';
import type { FlowPolicy } from '../policy/flow-policy';

/**
 * Exponential moving average of a policy's weights (stage 1 and 2 BC keep it, not the raw
 * weights): avg ← decay·avg + (1 − decay)·θ after each step, starting from the weights at
 * construction. Decay 0 keeps nothing and `applyTo` changes nothing. Owns its tensors: dispose().
 */
export class WeightEma {
  private readonly averages = new Map<string, tf.Tensor>();

  constructor(private readonly policy: FlowPolicy, readonly decay: number) {
    if (decay > 0) for (const [name, variable] of policy.namedVariables()) this.averages.set(name, tf.clone(variable));
  }

  /** Folds the policy's current weights into the average. */
  update(): void {
    for (const [name, variable] of this.policy.namedVariables()) {
      const previous = this.averages.get(name);
      if (!previous) continue;
      this.averages.set(name, tf.tidy(() => tf.add(tf.mul(previous, this.decay), tf.mul(variable, 1 - this.decay))));
      previous.dispose();
    }
  }

  /** Replaces the policy's weights with the average. */
  applyTo(): void {
    for (const [name, average] of this.averages) this.policy.namedVariables().get(name)!.assign(average);
  }

  /**
   * Runs `use` with the averaged weights in the policy (an evaluation or an export mid-training),
   * then puts the raw weights back, so training goes on exactly as it would have.
   */
  async withAverage<T>(use: () => Promise<T>): Promise<T> {
    if (this.averages.size === 0) return use();
    const raw = new Map([...this.policy.namedVariables()].map(([name, variable]) => [name, tf.clone(variable)] as const));
    try {
      this.applyTo();
      return await use();
    } finally {
      for (const [name, weights] of raw) this.policy.namedVariables().get(name)!.assign(weights);
      tf.dispose([...raw.values()]);
    }
  }

  /** The averages' values by parameter name (none with decay 0), so a stopped BC can continue exactly. */
  async values(): Promise<Map<string, Float32Array>> {
    const values = new Map<string, Float32Array>();
    for (const [name, average] of this.averages) values.set(name, (await average.data()) as Float32Array);
    return values;
  }

  /** Replaces the averages with stored ones; every averaged parameter must be there, at its size. */
  restore(values: ReadonlyMap<string, Float32Array>): void {
    for (const [name, average] of this.averages) {
      const stored = values.get(name);
      if (!stored || stored.length !== average.size) {
        throw new CheckpointError(`BC weight average for '${name}' ${stored ? `holds ${stored.length} values, but the parameter has ${average.size}` : 'is missing'}`);
      }
    }
    for (const [name, average] of this.averages) {
      this.averages.set(name, tf.tensor(values.get(name)!, average.shape));
      average.dispose();
    }
  }

  dispose(): void {
    tf.dispose([...this.averages.values()]);
    this.averages.clear();
  }
}
