import * as tf from '@tensorflow/tfjs';
import { ADAM_KERNEL, type AdamKernelAttrs } from '../backend/adam-kernel';
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

/** Moments of one parameter, as tensors shaped like it. */
interface MomentPair {
  m: tf.Tensor;
  v: tf.Tensor;
}

/** The parameters one flat moment vector covers, in order. */
interface FlatLayout {
  names: string[];
  sizes: number[];
  shapes: number[][];
}

/**
 * Adam / AdamW over named variables. The moments are keyed by the policy's dotted parameter
 * names (not tf variable names, which differ per process), and held as one flat vector over the
 * parameters a step updates, so a step is a few dozen tensor ops rather than a dozen per
 * parameter (per-op overhead dominates at PPO's minibatch sizes). Per element:
 *   m ← β1·m + (1−β1)·g,  v ← β2·v + (1−β2)·g²
 *   θ ← θ − lr·(m/(1−β1^t)) / (sqrt(v/(1−β2^t)) + ε) − lr·wd·θ
 */
export class NamedAdam {
  private layout: FlatLayout | undefined;
  private flat: { m: tf.Tensor1D; v: tf.Tensor1D } | undefined;
  /** Moments of parameters outside the current layout (restored state, or a group that changed). */
  private readonly parked = new Map<string, MomentPair>();
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
    const targets = [...grads.keys()].map((name) => {
      const variable = variables.get(name);
      if (!variable) throw new ConfigError('optimizer', `optimizer got a gradient for unknown parameter '${name}'`);
      return variable;
    });
    const layout = this.layoutFor([...grads.keys()], targets);
    this.stepCount++;
    const { beta1, beta2, epsilon, weightDecay } = this.options;
    const correction1 = 1 - beta1 ** this.stepCount;
    const correction2 = 1 - beta2 ** this.stepCount;
    const previous = this.flat!;
    if (tf.getKernel(ADAM_KERNEL, tf.getBackend())) {
      this.applyFused(layout, targets, grads, { beta1, beta2, correction1, correction2, epsilon, learningRate, weightDecay });
      return;
    }
    this.flat = tf.tidy(() => {
      const grad = tf.concat(layout.names.map((name) => tf.reshape(grads.get(name)!, [-1])));
      const m = tf.add(tf.mul(previous.m, beta1), tf.mul(grad, 1 - beta1)) as tf.Tensor1D;
      const v = tf.add(tf.mul(previous.v, beta2), tf.mul(tf.square(grad), 1 - beta2)) as tf.Tensor1D;
      const update = tf.div(tf.div(m, correction1), tf.add(tf.sqrt(tf.div(v, correction2)), epsilon));
      const parts = layout.sizes.length > 1 ? tf.split(update, layout.sizes) : [update];
      targets.forEach((variable, index) => {
        let value = tf.sub(variable, tf.mul(tf.reshape(parts[index], layout.shapes[index]), learningRate));
        if (weightDecay > 0) value = tf.sub(value, tf.mul(variable, learningRate * weightDecay));
        variable.assign(value);
      });
      return { m: tf.keep(m), v: tf.keep(v) };
    });
    tf.dispose([previous.m, previous.v]);
  }

  /** The same step as one ADAM_KERNEL call (the backend registered one): the same bits, far fewer ops. */
  private applyFused(layout: FlatLayout, targets: tf.Variable[], grads: ReadonlyMap<string, tf.Tensor>, step: { beta1: number; beta2: number; correction1: number; correction2: number; epsilon: number; learningRate: number; weightDecay: number }): void {
    const previous = this.flat!;
    const inputs: tf.NamedTensorMap = { m: previous.m, v: previous.v };
    layout.names.forEach((name, index) => {
      inputs[`grad${index}`] = grads.get(name)!;
      inputs[`param${index}`] = targets[index];
    });
    const attrs: AdamKernelAttrs = {
      parameters: targets.length, beta1: step.beta1, oneMinusBeta1: 1 - step.beta1, beta2: step.beta2, oneMinusBeta2: 1 - step.beta2,
      correction1: step.correction1, correction2: step.correction2, epsilon: step.epsilon, learningRate: step.learningRate,
      decay: step.learningRate * step.weightDecay, weightDecay: step.weightDecay > 0,
    };
    const [m, v, ...params] = tf.engine().runKernel(ADAM_KERNEL, inputs, attrs as unknown as tf.NamedAttrMap) as tf.Tensor[];
    targets.forEach((variable, index) => variable.assign(params[index]));
    tf.dispose([previous.m, previous.v, ...params]);
    this.flat = { m: m as tf.Tensor1D, v: v as tf.Tensor1D };
  }

  /** The flat layout for these parameters, re-packing the moments when the set of parameters changed. */
  private layoutFor(names: string[], targets: tf.Variable[]): FlatLayout {
    const current = this.layout;
    if (current && current.names.length === names.length && current.names.every((name, index) => name === names[index])) return current;
    this.parkFlat();
    const layout: FlatLayout = { names, sizes: targets.map((variable) => variable.size), shapes: targets.map((variable) => [...variable.shape]) };
    this.flat = tf.tidy(() => {
      const pick = (key: 'm' | 'v') => tf.concat(names.map((name, index) => {
        const parked = this.parked.get(name);
        return parked ? tf.reshape(parked[key], [-1]) : tf.zeros([layout.sizes[index]]);
      })) as tf.Tensor1D;
      return { m: pick('m'), v: pick('v') };
    });
    for (const name of names) {
      const parked = this.parked.get(name);
      if (parked) tf.dispose([parked.m, parked.v]);
      this.parked.delete(name);
    }
    this.layout = layout;
    return layout;
  }

  /** Moves the flat moments back to per-parameter tensors. */
  private parkFlat(): void {
    const { layout, flat } = this;
    if (!layout || !flat) return;
    tf.tidy(() => {
      const split = (vector: tf.Tensor1D) => (layout.sizes.length > 1 ? tf.split(vector, layout.sizes) : [vector]);
      const [ms, vs] = [split(flat.m), split(flat.v)];
      layout.names.forEach((name, index) => {
        this.parked.set(name, { m: tf.keep(tf.reshape(ms[index], layout.shapes[index])), v: tf.keep(tf.reshape(vs[index], layout.shapes[index])) });
      });
    });
    tf.dispose([flat.m, flat.v]);
    this.layout = undefined;
    this.flat = undefined;
  }

  async getState(): Promise<AdamState> {
    const slots = new Map<string, AdamSlot>();
    if (this.layout && this.flat) {
      const [m, v] = (await Promise.all([this.flat.m.data(), this.flat.v.data()])) as Float32Array[];
      let offset = 0;
      this.layout.names.forEach((name, index) => {
        const size = this.layout!.sizes[index];
        slots.set(name, { m: m.slice(offset, offset + size), v: v.slice(offset, offset + size) });
        offset += size;
      });
    }
    for (const [name, { m, v }] of this.parked) {
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
      this.parked.set(name, { m: tf.tensor(slot.m, shape), v: tf.tensor(slot.v, shape) });
    }
    this.stepCount = state.step;
  }

  dispose(): void {
    if (this.flat) tf.dispose([this.flat.m, this.flat.v]);
    this.flat = undefined;
    this.layout = undefined;
    for (const { m, v } of this.parked.values()) tf.dispose([m, v]);
    this.parked.clear();
  }
}
