import * as tf from '@tensorflow/tfjs';
import { ShapeError } from '../errors';
import { createRng, type Rng } from '../random';
import { encodeObs, obsBatchSize, type PolicyObs } from './obs-encoder';
import { resolveFlowPolicyOptions, type FlowPolicyOptions } from './options';
import { expectedParameterShapes, isCriticParameter, type ParamShapes } from './param-shapes';
import { checkWeights, type WeightEntry } from './weight-check';
import { noiseHeadStd, type NoiseHeadBounds } from './noise-head';
import { reflowEncode, reflowNoiseStd, reflowValue } from './reflow-heads';
import { stopGradient } from './stop-gradient';
import { valueHead } from './value-head';
import { velocityDitx } from './velocity-ditx';
import { velocityMlp, type VelocityOutput } from './velocity-mlp';
import { velocityReflow } from './velocity-reflow';
import { velocityUnet1d } from './velocity-unet1d';

export type { WeightEntry } from './weight-check';

/** Keeps tf variable names unique when several policies live in one process. */
let variableSerial = 0;

/** Deterministic Glorot-uniform init from the project RNG (same weights on every backend). */
function initialValue(name: string, shape: number[], rng: Rng): Float32Array {
  const size = shape.reduce((product, dim) => product * dim, 1);
  const values = new Float32Array(size);
  if (name.endsWith('.gamma')) return values.fill(1);
  // DiT-X position embeddings start small and random so the tokens are told apart from the first step.
  if (name.endsWith('_pos') || name.endsWith('.pos')) {
    for (let offset = 0; offset < size; offset++) values[offset] = 0.02 * (2 * rng.uniform() - 1);
    return values;
  }
  // AdaLN-Zero: modulations start at zero, so every DiT-X block starts as the identity.
  if (!name.endsWith('.kernel') || name.endsWith('.modulation.kernel')) return values;
  // Output layers of the velocity net and noise head start small so that a fresh policy is gentle.
  const gain = name === 'velocity.output.kernel' || name === 'noise_head.output.kernel' ? 0.1 : 1;
  // A convolution kernel [taps…, in, out] (Conv1d [k, in, out], Conv2d [kh, kw, in, out]) fans in over taps·in values
  // and out to taps·out; a dense kernel has one tap.
  const taps = shape.slice(0, -2).reduce((product, dim) => product * dim, 1);
  const limit = gain * Math.sqrt(6 / (taps * (shape[shape.length - 2] + shape[shape.length - 1])));
  for (let offset = 0; offset < size; offset++) values[offset] = (2 * rng.uniform() - 1) * limit;
  return values;
}

/** Every parameter of a fresh policy: the deterministic init of seed `seed` (what `new FlowPolicy(options, seed)` holds). */
export function freshParameterValues(options: FlowPolicyOptions, seed: number): Map<string, WeightEntry> {
  const rng = createRng(seed);
  const values = new Map<string, WeightEntry>();
  for (const [name, shape] of expectedParameterShapes(options)) values.set(name, { shape, data: initialValue(name, shape, rng) });
  return values;
}

/**
 * A flow-matching policy that owns its tf.Variables under stable dotted names
 * (`encoder.*`, `velocity.*`, `noise_head.*`, `value.*`). Call `dispose()` when done.
 */
export class FlowPolicy {
  readonly options: FlowPolicyOptions;
  readonly shapes: ParamShapes;
  private readonly variables = new Map<string, tf.Variable>();
  private disposed = false;

  /**
   * `options` resolved and checked; each parameter starts from `init`: a seed for a fresh policy
   * (deterministic Glorot from the project RNG), or a decoded checkpoint's weights, used as they
   * are with no throwaway initialization.
   */
  constructor(options: Parameters<typeof resolveFlowPolicyOptions>[0], init: number | ReadonlyMap<string, WeightEntry> = 0) {
    this.options = resolveFlowPolicyOptions(options);
    this.shapes = expectedParameterShapes(this.options);
    const weights = typeof init === 'number' ? freshParameterValues(this.options, init) : init;
    checkWeights(this.shapes, weights);
    for (const [name, shape] of this.shapes) this.addVariable(name, shape, weights.get(name)!.data);
  }

  private addVariable(name: string, shape: number[], values: Float32Array): void {
    const initial = tf.tensor(values, shape);
    this.variables.set(name, tf.variable(initial, true, `${name}_${variableSerial++}`));
    initial.dispose();
  }

  /** The named parameter; throws ShapeError for an unknown name. */
  readonly param = (name: string): tf.Variable => {
    const variable = this.variables.get(name);
    if (!variable) throw new ShapeError(name, `policy has no parameter '${name}'`);
    return variable;
  };

  /** All parameters by name, in stable order. */
  namedVariables(): ReadonlyMap<string, tf.Variable> {
    return this.variables;
  }

  /** Encoder, velocity net and noise head (the actor learning rate). */
  actorVariables(): tf.Variable[] {
    return [...this.variables].filter(([name]) => !isCriticParameter(name)).map(([, variable]) => variable);
  }

  /** What BC trains (stages 1 and 2): the encoder and the velocity (or ε) net, by name, in parameter order. */
  bcVariables(): [string, tf.Variable][] {
    return [...this.variables].filter(([name]) => name.startsWith('encoder.') || name.startsWith('velocity.'));
  }

  /** Value head (the critic learning rate). */
  criticVariables(): tf.Variable[] {
    return [...this.variables].filter(([name]) => isCriticParameter(name)).map(([, variable]) => variable);
  }

  /** Batch size of obs; throws ShapeError naming the bad field. */
  batchSize(obs: PolicyObs): number {
    return obsBatchSize(this.options, obs);
  }

  /** obs → features [B, F]. */
  encode(obs: PolicyObs): tf.Tensor2D {
    if (this.options.velocityNet !== 'reflow_mlp' || obs.features) return encodeObs(this.param, this.options, obs);
    return tf.tidy(() => reflowEncode(this.param, this.options, tf.reshape(obs.state as tf.Tensor, [this.batchSize(obs), -1]) as tf.Tensor2D));
  }

  /** x [B, H, A], t [B], d [B], features [B, F] → velocity [B, H·A] and hidden [B, h]. */
  velocity(x: tf.Tensor, t: tf.Tensor1D, stepSize: tf.Tensor1D, features: tf.Tensor2D): VelocityOutput {
    if (this.options.velocityNet === 'ditx') return velocityDitx(this.param, this.options, x, t, stepSize, features);
    if (this.options.velocityNet === 'unet1d') return velocityUnet1d(this.param, this.options, x, t, stepSize, features);
    return tf.tidy(() => {
      const flat = tf.reshape(x, [x.shape[0], this.options.horizon * this.options.actionDim]) as tf.Tensor2D;
      if (this.options.velocityNet === 'reflow_mlp') return velocityReflow(this.param, this.options, flat, t, stepSize, features);
      return velocityMlp(this.param, this.options, flat, t, stepSize, features);
    });
  }

  /** Learned std [B, H, A] for method `noise`; `stepSize` d [B] feeds the noise nets that read a step embedding (ReinFlow's ShortCut, the UNet1D's). */
  noiseStd(features: tf.Tensor2D, t: tf.Tensor1D, bounds: NoiseHeadBounds, stepSize?: tf.Tensor1D): tf.Tensor3D {
    if (!this.options.noiseHead) throw new ShapeError('noiseHead', 'method noise needs a policy built with noiseHead: true');
    if (this.options.velocityNet === 'reflow_mlp') {
      if (this.options.shortcut && !stepSize) throw new ShapeError('stepSize', "ReinFlow's ShortCut noise net reads the step size d: pass it");
      return reflowNoiseStd(this.param, this.options, features, t, stepSize ?? tf.zerosLike(t), bounds);
    }
    if (this.options.velocityNet === 'unet1d' && this.options.shortcut && !stepSize) throw new ShapeError('stepSize', "the UNet1D's noise head reads the step size d: pass it");
    return noiseHeadStd(this.param, this.options, features, t, bounds, stepSize);
  }

  /** Value [B] from the value head input (see `valueOn`). */
  value(input: tf.Tensor2D): tf.Tensor1D {
    if (this.options.velocityNet !== 'reflow_mlp') return valueHead(this.param, this.options, input);
    return tf.tidy(() => reflowValue(this.param, this.options, this.options.detachCriticInput ? stopGradient(input) as tf.Tensor2D : input));
  }

  /** Copies every parameter out (row-major float32). */
  async getWeights(): Promise<Map<string, WeightEntry>> {
    const weights = new Map<string, WeightEntry>();
    for (const [name, variable] of this.variables) {
      weights.set(name, { shape: [...variable.shape], data: (await variable.data()) as Float32Array });
    }
    return weights;
  }

  /** Validates all names and shapes first, then assigns; throws ShapeError naming the tensor and both shapes. */
  setWeights(weights: ReadonlyMap<string, WeightEntry>): void {
    checkWeights(this.shapes, weights);
    for (const [name, variable] of this.variables) {
      const entry = weights.get(name) as WeightEntry;
      tf.tidy(() => variable.assign(tf.tensor(entry.data, entry.shape)));
    }
  }

  /** Frees every variable; the policy cannot be used afterwards. */
  dispose(): void {
    if (this.disposed) return;
    for (const variable of this.variables.values()) variable.dispose();
    this.variables.clear();
    this.disposed = true;
  }
}
