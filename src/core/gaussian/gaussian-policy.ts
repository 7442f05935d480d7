import * as tf from '@tensorflow/tfjs';
import { ShapeError } from '../errors';
import { dense } from '../policy/layers';
import { checkWeights, type WeightEntry } from '../policy/weight-check';
import { createRng } from '../random';
import { gaussianParameterShapes, isGaussianCriticParameter, resolveGaussianOptions, type GaussianPolicyOptions } from './gaussian-options';
import { orthogonalMatrix } from './orthogonal-init';

const HALF_LOG_TWO_PI = 0.5 * Math.log(2 * Math.PI);

let variableSerial = 0;

/** Log-density of each action under the policy, summed over action dims, and its entropy. */
export interface GaussianLogProb {
  /** [B] Σ_a −½((x_a − μ_a)/σ_a)² − log σ_a − ½ log 2π */
  logProb: tf.Tensor1D;
  /** [B] Σ_a ½ + ½ log 2π + log σ_a */
  entropy: tf.Tensor1D;
}

/**
 * The Gaussian PPO baseline's policy (CleanRL's ppo_continuous_action, DESIGN.md §14 "Gaussian
 * PPO"): an actor MLP obs → mean action and a critic MLP obs → value, both tanh, with a
 * state-independent log std. Orthogonal init as CleanRL: gain √2 on hidden layers, 0.01 on the
 * mean head, 1 on the value head, biases 0. Observations are already normalized.
 */
export class GaussianPolicy {
  readonly options: GaussianPolicyOptions;
  readonly shapes: Map<string, number[]>;
  private readonly variables = new Map<string, tf.Variable>();
  private disposed = false;

  /** A fresh policy from `init` (a seed) with log std `initLogStd`, or a checkpoint's weights. */
  constructor(options: Partial<GaussianPolicyOptions>, init: number | ReadonlyMap<string, WeightEntry> = 0, initLogStd = 0) {
    this.options = resolveGaussianOptions(options);
    this.shapes = gaussianParameterShapes(this.options);
    if (typeof init === 'number') {
      const rng = createRng(init);
      for (const [name, shape] of this.shapes) this.addVariable(name, shape, initialValue(name, shape, initLogStd, rng));
    } else {
      checkWeights(this.shapes, init);
      for (const [name, shape] of this.shapes) this.addVariable(name, shape, init.get(name)!.data);
    }
  }

  private addVariable(name: string, shape: number[], values: Float32Array): void {
    const initial = tf.tensor(values, shape);
    this.variables.set(name, tf.variable(initial, true, `${name}_g${variableSerial++}`));
    initial.dispose();
  }

  readonly param = (name: string): tf.Variable => {
    const variable = this.variables.get(name);
    if (!variable) throw new ShapeError(name, `Gaussian policy has no parameter '${name}'`);
    return variable;
  };

  namedVariables(): ReadonlyMap<string, tf.Variable> {
    return this.variables;
  }

  private trunk(net: 'actor' | 'critic', obs: tf.Tensor2D): tf.Tensor2D {
    let hidden: tf.Tensor = obs;
    for (let layer = 0; layer < this.options.hidden.length; layer++) hidden = tf.tanh(dense(this.param, `${net}.l${layer}`, hidden));
    return hidden as tf.Tensor2D;
  }

  /** obs [B, obsDim] → mean action [B, A]. */
  mean(obs: tf.Tensor2D): tf.Tensor2D {
    return tf.tidy(() => dense(this.param, 'actor.mean', this.trunk('actor', obs)) as tf.Tensor2D);
  }

  /** obs [B, obsDim] → value [B]. */
  value(obs: tf.Tensor2D): tf.Tensor1D {
    return tf.tidy(() => tf.reshape(dense(this.param, 'critic.out', this.trunk('critic', obs)), [-1]) as tf.Tensor1D);
  }

  /** The std per action dim [A]. */
  std(): tf.Tensor1D {
    return tf.exp(this.param('actor.log_std')) as tf.Tensor1D;
  }

  /** Log-prob of `actions` [B, A] given obs [B, obsDim], and the entropy, both [B]. */
  logProb(obs: tf.Tensor2D, actions: tf.Tensor2D): GaussianLogProb {
    return tf.tidy(() => {
      const logStd = this.param('actor.log_std');
      const z = tf.div(tf.sub(actions, this.mean(obs)), tf.exp(logStd));
      const perDim = tf.sub(tf.mul(tf.square(z), -0.5), tf.add(logStd, HALF_LOG_TWO_PI));
      const entropyPerRow = tf.sum(tf.add(logStd, 0.5 + HALF_LOG_TWO_PI));
      return {
        logProb: tf.sum(perDim, 1) as tf.Tensor1D,
        entropy: tf.mul(tf.ones([obs.shape[0]]), entropyPerRow) as tf.Tensor1D,
      };
    });
  }

  async getWeights(): Promise<Map<string, WeightEntry>> {
    const weights = new Map<string, WeightEntry>();
    for (const [name, variable] of this.variables) weights.set(name, { shape: [...variable.shape], data: (await variable.data()) as Float32Array });
    return weights;
  }

  setWeights(weights: ReadonlyMap<string, WeightEntry>): void {
    checkWeights(this.shapes, weights);
    for (const [name, variable] of this.variables) {
      const entry = weights.get(name)!;
      tf.tidy(() => variable.assign(tf.tensor(entry.data, entry.shape)));
    }
  }

  actorVariableNames(): string[] {
    return [...this.variables.keys()].filter((name) => !isGaussianCriticParameter(name));
  }

  dispose(): void {
    if (this.disposed) return;
    for (const variable of this.variables.values()) variable.dispose();
    this.variables.clear();
    this.disposed = true;
  }
}

/** CleanRL's layer_init: orthogonal kernels (gain √2 hidden, 0.01 mean head, 1 value head), zero biases. */
function initialValue(name: string, shape: number[], initLogStd: number, rng: ReturnType<typeof createRng>): Float32Array {
  const size = shape.reduce((product, dim) => product * dim, 1);
  if (name === 'actor.log_std') return new Float32Array(size).fill(initLogStd);
  if (!name.endsWith('.kernel')) return new Float32Array(size);
  const gain = name === 'actor.mean.kernel' ? 0.01 : name === 'critic.out.kernel' ? 1 : Math.SQRT2;
  return orthogonalMatrix(shape[0], shape[1], gain, rng);
}
