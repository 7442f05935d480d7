import * as tf from '@tensorflow/tfjs';
import { ConfigError, ShapeError } from '../errors';

/** Serializable min/max statistics of one quantity (per feature). */
export interface MinMaxStats {
  min: number[];
  max: number[];
  /** When set, normalized values are clamped to [−clip, clip] (DPPO's clamp_obs clamps to 1). */
  clip?: number;
}

/** Half ranges below this are treated as constant features. */
const MIN_HALF_RANGE = 1e-6;

/**
 * Maps each feature from [min, max] to [-1, 1]: y = (x − center)/halfRange, center = (max + min)/2,
 * halfRange = (max − min)/2. Constant features (halfRange < 1e-6) normalize to x − center (≈ 0)
 * and unnormalize to center + y·halfRange (≈ center), so neither direction divides by zero.
 * With `stats.clip` = c, normalize gives clamp(y, −c, c); unnormalize never clamps.
 */
export class MinMaxNormalizer {
  readonly dim: number;
  /** The bound normalized values are clamped to, when set. */
  readonly clip: number | undefined;
  private readonly center: Float32Array;
  private readonly halfRange: Float32Array;
  private readonly scale: Float32Array;

  constructor(readonly stats: MinMaxStats, readonly field = 'normalizer') {
    const { min, max } = stats;
    if (!Array.isArray(min) || !Array.isArray(max) || min.length === 0 || min.length !== max.length) {
      throw new ShapeError(field, `${field}.min and ${field}.max must be non-empty lists of the same length, got ${min?.length} and ${max?.length}`);
    }
    if (stats.clip !== undefined && !(Number.isFinite(stats.clip) && stats.clip > 0)) {
      throw new ConfigError(field, `${field}.clip must be a positive number when set, got ${stats.clip}`);
    }
    this.clip = stats.clip;
    this.dim = min.length;
    this.center = new Float32Array(this.dim);
    this.halfRange = new Float32Array(this.dim);
    this.scale = new Float32Array(this.dim);
    for (let featureIndex = 0; featureIndex < this.dim; featureIndex++) {
      const lo = min[featureIndex];
      const hi = max[featureIndex];
      if (!Number.isFinite(lo) || !Number.isFinite(hi) || hi < lo) {
        throw new ConfigError(field, `${field} feature ${featureIndex} needs finite min ≤ max, got min ${lo} and max ${hi}`);
      }
      this.center[featureIndex] = (hi + lo) / 2;
      this.halfRange[featureIndex] = (hi - lo) / 2;
      this.scale[featureIndex] = this.halfRange[featureIndex] < MIN_HALF_RANGE ? 1 : 1 / this.halfRange[featureIndex];
    }
  }

  /** Stats from data [rows, dim] (row-major). */
  static fit(data: Float32Array, dim: number, field = 'normalizer'): MinMaxNormalizer {
    if (dim < 1 || data.length === 0 || data.length % dim !== 0) {
      throw new ShapeError(field, `${field} data length ${data.length} must be a positive multiple of dim ${dim}`);
    }
    const min = new Array<number>(dim).fill(Infinity);
    const max = new Array<number>(dim).fill(-Infinity);
    for (let offset = 0; offset < data.length; offset++) {
      const featureIndex = offset % dim;
      if (data[offset] < min[featureIndex]) min[featureIndex] = data[offset];
      if (data[offset] > max[featureIndex]) max[featureIndex] = data[offset];
    }
    return new MinMaxNormalizer({ min, max }, field);
  }

  /** JSON-safe copy of the stats. */
  toJSON(): MinMaxStats {
    return { min: [...this.stats.min], max: [...this.stats.max], ...(this.clip !== undefined ? { clip: this.clip } : {}) };
  }

  /** The same ranges with normalized values clamped to ±`clip`, or not clamped when undefined. */
  withClip(clip: number | undefined): MinMaxNormalizer {
    if (clip === this.clip) return this;
    const { min, max } = this.toJSON();
    return new MinMaxNormalizer({ min, max, ...(clip !== undefined ? { clip } : {}) }, this.field);
  }

  private checkLength(length: number): void {
    if (length % this.dim !== 0) throw new ShapeError(this.field, `${this.field} input length ${length} is not a multiple of its dim ${this.dim}`);
  }

  /** [..., dim] → [..., dim] in [-1, 1] (clamped to ±clip when set). */
  normalize(values: Float32Array): Float32Array {
    this.checkLength(values.length);
    const out = new Float32Array(values.length);
    for (let offset = 0; offset < values.length; offset++) {
      const featureIndex = offset % this.dim;
      out[offset] = (values[offset] - this.center[featureIndex]) * this.scale[featureIndex];
    }
    const clip = this.clip;
    if (clip !== undefined) for (let offset = 0; offset < out.length; offset++) out[offset] = Math.min(clip, Math.max(-clip, out[offset]));
    return out;
  }

  /** [..., dim] in [-1, 1] → original units. */
  unnormalize(values: Float32Array): Float32Array {
    this.checkLength(values.length);
    const out = new Float32Array(values.length);
    for (let offset = 0; offset < values.length; offset++) {
      const featureIndex = offset % this.dim;
      out[offset] = values[offset] * this.halfRange[featureIndex] + this.center[featureIndex];
    }
    return out;
  }

  /** Tensor version of `normalize`; the last axis must be dim. */
  normalizeTensor(values: tf.Tensor): tf.Tensor {
    if (values.shape[values.rank - 1] !== this.dim) {
      throw new ShapeError(this.field, `${this.field} expects last axis ${this.dim}, got [${values.shape.join(', ')}]`);
    }
    return tf.tidy(() => {
      const normalized = tf.mul(tf.sub(values, tf.tensor1d(this.center)), tf.tensor1d(this.scale));
      return this.clip === undefined ? normalized : tf.clipByValue(normalized, -this.clip, this.clip);
    });
  }

  /** Tensor version of `unnormalize`; the last axis must be dim. */
  unnormalizeTensor(values: tf.Tensor): tf.Tensor {
    if (values.shape[values.rank - 1] !== this.dim) {
      throw new ShapeError(this.field, `${this.field} expects last axis ${this.dim}, got [${values.shape.join(', ')}]`);
    }
    return tf.tidy(() => tf.add(tf.mul(values, tf.tensor1d(this.halfRange)), tf.tensor1d(this.center)));
  }
}

/**
 * Frame stats whose first `numPoints`·3 features are x, y, z of points (DESIGN.md §5 point-cloud
 * layout) with each point's range replaced by the range over all points, axis by axis. A point's
 * index says nothing about where it lies, and PointNet needs one shared frame for every point.
 */
export function poolPointRanges(stats: MinMaxStats, numPoints: number): MinMaxStats {
  const min = [...stats.min];
  const max = [...stats.max];
  for (let axis = 0; axis < 3; axis++) {
    let lo = Infinity;
    let hi = -Infinity;
    for (let point = 0; point < numPoints; point++) {
      lo = Math.min(lo, stats.min[point * 3 + axis]);
      hi = Math.max(hi, stats.max[point * 3 + axis]);
    }
    for (let point = 0; point < numPoints; point++) {
      min[point * 3 + axis] = lo;
      max[point * 3 + axis] = hi;
    }
  }
  return { min, max };
}
