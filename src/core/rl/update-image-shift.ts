/**
 * Random shift of the camera images in an update's minibatches (DrQ; DESIGN.md §19), for every chain family's
 * objective: each minibatch's stored images are shifted image by image from the run's shift stream, every other field
 * as stored. Rollouts and evaluation never shift.
 */
import { ConfigError } from '../errors';
import type { ImageEncoderOptions } from '../policy/image-encoder-options';
import { randomShift } from '../policy/random-shift';
import type { Rng } from '../random';
import type { Minibatch } from './minibatches';
import type { MinibatchTensors } from './ppo-epochs';
import type { RowTable, RowValues } from './row-table';

type AnyTable = RowTable<string, Record<string, RowValues>>;

function missingShiftRng(): never {
  throw new ConfigError('policy.image_shift', 'policy.image_shift shifts camera images in updates with the run\'s RNG; pass the update its shift stream or set policy.image_shift=0');
}

/**
 * The objective's `tensors` for a table whose `images` field holds each row's camera images: the minibatch's rows with
 * their images shifted by up to `pad` pixels from `rng`. Undefined (the table's own tensors) without images in the
 * table (none, or a frozen encoder's features in their place) or with pad 0; a ConfigError when a shift has no stream.
 */
export function shiftedImageTensors(
  table: AnyTable,
  image: ImageEncoderOptions | undefined,
  pad: number,
  rng: Rng | undefined,
): ((minibatch: Minibatch<string, Record<string, RowValues>>) => MinibatchTensors) | undefined {
  if (!image || !table.names.includes('images') || pad <= 0) return undefined;
  const stream = rng ?? missingShiftRng();
  const { size, channels } = image;
  const perRow = image.cameras.length;
  return (minibatch) => {
    const arrays = minibatch.arrays();
    const rows = minibatch.rows.length;
    arrays.images = randomShift(arrays.images as Uint8Array, { count: rows * perRow, size, channels }, pad, stream);
    return table.tensorsOf(arrays, rows);
  };
}
