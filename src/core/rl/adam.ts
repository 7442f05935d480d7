import * as tf from '@tensorflow/tfjs';
import type { AdamMoments } from '../checkpoint/checkpoint-types';
import { ConfigError } from '../errors';

/** Adam moments of one parameter, row-major float32. */
export interface AdamSlot {
  m: Float32Array;
  v: Float32Array;
}

/** Serializable optimizer state, keyed by parameter name so a resumed run continues exactly. */
export type AdamState = AdamMoments;

export interface AdamOptions {
  beta1: number;
  beta2: number;
  epsilon: number;
  /** Decoupled weight decay (AdamW); 0 = plain Adam. */
  weightDecay: number;
}

export const DEFAULT_ADAM: AdamOptions = { beta1: 0.9, beta2: 0.999, epsilon: 1e-8, weightDecay: 0 };

/**
 * Adam / AdamW over named variables. The moments live in tf tensors keyed by the
 * policy's dotted parameter names (not tf variable names, which differ per process).
 *   m ← β1·m + (1−β1)·g,  v ← β2·v + (1−β2)·g²
 *   θ ← θ − lr·(m/(1−β1^t)) / (sqrt(v/(1−β2^t)) + ε) − lr·wd·θ
 */
export class NamedAdam {
  private readonly moments = new Map<string, { m: tf.Tensor; v: tf.Tensor }>();
  private stepCount = 0;

  constructor(readonly options: AdamOptions = DEFAULT_ADAM) {
    if (!(options.beta1 >= 0 && options.beta1 < 1)) throw new ConfigError('adam.beta1', `adam beta1 must be in [0, 1), got ${options.beta1}`);
    if (!(options.beta2 >= 0 && options.beta2 < 1)) throw new ConfigError('adam.beta2', `adam beta2 must be in [0, 1), got ${options.beta2}`);
    if (!(options.epsilon > 0)) throw new ConfigError('ppo.adam_eps', `ppo.adam_eps must be > 0, got ${options.epsilon}`);
    if (!(options.weightDecay >= 0)) throw new ConfigError('ppo.weight_decay', `ppo.weight_decay must be ≥ 0, got ${options.weightDecay}`);
  }

  get step(): number {
    return this.stepCount;
  }

  /** Applies one step to every variable that has a gradient; `grads` is keyed by parameter name. */
  apply(variables: ReadonlyMap<string, tf.Variable>, grads: ReadonlyMap<string, tf.Tensor>, learningRate: number): void {
    if (grads.size === 0) return;
    this.stepCount++;
    const { beta1, beta2, epsilon, weightDecay } = this.options;
    const correction1 = 1 - beta1 ** this.stepCount;
    const correction2 = 1 - beta2 ** this.stepCount;
    for (const [name, grad] of grads) {
      const variable = variables.get(name);
      if (!variable) throw new ConfigError('optimizer', `optimizer got a gradient for unknown parameter '${name}'`);
      const previous = this.moments.get(name);
      const next = tf.tidy(() => {
        const m = tf.add(tf.mul(previous?.m ?? tf.zerosLike(grad), beta1), tf.mul(grad, 1 - beta1));
        const v = tf.add(tf.mul(previous?.v ?? tf.zerosLike(grad), beta2), tf.mul(tf.square(grad), 1 - beta2));
        const update = tf.div(tf.div(m, correction1), tf.add(tf.sqrt(tf.div(v, correction2)), epsilon));
        let value = tf.sub(variable, tf.mul(update, learningRate));
        if (weightDecay > 0) value = tf.sub(value, tf.mul(variable, learningRate * weightDecay));
        variable.assign(value);
        return { m: tf.keep(m), v: tf.keep(v) };
      });
      if (previous) tf.dispose([previous.m, previous.v]);
      this.moments.set(name, next);
    }
  }

  async getState(): Promise<AdamState> {
    const slots = new Map<string, AdamSlot>();
    for (const [name, { m, v }] of this.moments) {
      slots.set(name, { m: (await m.data()) as Float32Array, v: (await v.data()) as Float32Array });
    }
    return { step: this.stepCount, slots };
  }

  /** Replaces the state; shapes follow the named variables. */
  setState(state: AdamState, variables: ReadonlyMap<string, tf.Variable>): void {
    for (const [name, slot] of state.slots) {
      const variable = variables.get(name);
      if (!variable) throw new ConfigError('optimizer', `optimizer state names unknown parameter '${name}'`);
      if (slot.m.length !== variable.size || slot.v.length !== variable.size) {
        throw new ConfigError('optimizer', `optimizer state for '${name}' has ${slot.m.length} values, expected ${variable.size}`);
      }
    }
    this.dispose();
    for (const [name, slot] of state.slots) {
      const shape = variables.get(name)!.shape;
      this.moments.set(name, { m: tf.tensor(slot.m, shape), v: tf.tensor(slot.v, shape) });
    }
    this.stepCount = state.step;
  }

  dispose(): void {
    for (const { m, v } of this.moments.values()) tf.dispose([m, v]);
    this.moments.clear();
  }
}
