import * as tf from '@tensorflow/tfjs';
import { ConfigError, ShapeError } from '../errors';
import { dense, mlpLayers } from '../policy/layers';
import { createRng, type Rng } from '../random';
import { sampledMinibatch } from '../rl/minibatches';
import { RowTable } from '../rl/row-table';

/** The stage-2 critic's size and fit (DESIGN.md §12). */
export interface CriticOptions {
  /** Hidden widths of the value MLP (SiLU). */
  hidden: readonly number[];
  /** Adam steps of the regression. */
  steps: number;
  batchSize: number;
  learningRate: number;
  seed: number;
}

function checkCriticOptions(options: CriticOptions): void {
  const positiveInt = (field: string, value: number) => {
    if (!Number.isInteger(value) || value < 1) throw new ConfigError(field, `${field} must be a positive integer, got ${value}`);
  };
  positiveInt('critic_steps', options.steps);
  positiveInt('critic_batch_size', options.batchSize);
  if (options.hidden.length === 0) throw new ConfigError('critic_hidden', 'critic_hidden must list at least one width');
  for (const width of options.hidden) positiveInt('critic_hidden', width);
  if (!(options.learningRate > 0)) throw new ConfigError('critic_lr', `critic_lr must be > 0, got ${options.learningRate}`);
}

function glorot(shape: [number, number], rng: Rng): Float32Array {
  const limit = Math.sqrt(6 / (shape[0] + shape[1]));
  return Float32Array.from({ length: shape[0] * shape[1] }, () => (2 * rng.uniform() - 1) * limit);
}

/**
 * V(s): an MLP from input features [B, D] to a scalar, trained on standardized returns
 * z = (G − μ_G)/σ_G and read back as μ_G + σ_G·ẑ, so its scale does not depend on the reward's.
 * Owns its variables; call dispose().
 */
export class ValueCritic {
  private readonly variables = new Map<string, tf.Variable>();
  private returnMean = 0;
  private returnStd = 1;

  constructor(readonly inputDim: number, readonly options: CriticOptions) {
    checkCriticOptions(options);
    const rng = createRng(options.seed);
    const widths = [inputDim, ...options.hidden, 1];
    for (let layerIndex = 0; layerIndex + 1 < widths.length; layerIndex++) {
      const prefix = layerIndex === options.hidden.length ? 'value.output' : `value.layers.${layerIndex}`;
      const shape: [number, number] = [widths[layerIndex], widths[layerIndex + 1]];
      const kernel = tf.tensor2d(glorot(shape, rng), shape);
      const bias = tf.zeros([shape[1]]);
      this.variables.set(`${prefix}.kernel`, tf.variable(kernel, true));
      this.variables.set(`${prefix}.bias`, tf.variable(bias, true));
      tf.dispose([kernel, bias]);
    }
  }

  private readonly param = (name: string): tf.Variable => this.variables.get(name)!;

  /** features [B, D] → standardized value [B]. */
  private standardized(features: tf.Tensor2D): tf.Tensor1D {
    return tf.tidy(() => tf.reshape(dense(this.param, 'value.output', mlpLayers(this.param, 'value', features, this.options.hidden.length)), [-1]) as tf.Tensor1D);
  }

  /** Regresses V on returns [S] from features [S, D] with minibatch Adam on the MSE. */
  fit(features: Float32Array, returns: Float32Array): void {
    const size = returns.length;
    if (size === 0 || features.length !== size * this.inputDim) {
      throw new ShapeError('features', `critic features must be [S, ${this.inputDim}] for ${size} returns, got ${features.length} values`);
    }
    this.returnMean = returns.reduce((sum, value) => sum + value, 0) / size;
    this.returnStd = Math.sqrt(returns.reduce((sum, value) => sum + (value - this.returnMean) ** 2, 0) / size) || 1;
    const trainingTable = new RowTable(size, {
      input: { values: features, rowShape: [this.inputDim] },
      target: { values: returns.map((value) => (value - this.returnMean) / this.returnStd), rowShape: [] },
    });
    const rng = createRng(this.options.seed + 1);
    const optimizer = tf.train.adam(this.options.learningRate);
    const batch = Math.min(this.options.batchSize, size);
    try {
      for (let step = 0; step < this.options.steps; step++) {
        const minibatch = sampledMinibatch(trainingTable, rng, batch);
        tf.tidy(() => {
          const { input, target } = minibatch.tensors();
          optimizer.minimize(() => tf.mean(tf.square(tf.sub(this.standardized(input as tf.Tensor2D), target))) as tf.Scalar, false, [...this.variables.values()]);
        });
      }
    } finally {
      optimizer.dispose();
    }
  }

  /** features [S, D] → V [S] in return units. */
  async predict(features: Float32Array): Promise<Float32Array> {
    const size = features.length / this.inputDim;
    const out = tf.tidy(() => tf.add(tf.mul(this.standardized(tf.tensor2d(features, [size, this.inputDim])), this.returnStd), this.returnMean));
    try {
      return (await out.data()) as Float32Array;
    } finally {
      out.dispose();
    }
  }

  dispose(): void {
    for (const variable of this.variables.values()) variable.dispose();
    this.variables.clear();
  }
}
