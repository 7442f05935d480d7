const HOST_IS_LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * The values' bytes in little-endian order, as torch storages and `<f4`/`<f8`
 * arrays hold them: a view of the array's own bytes on a little-endian host
 * (every host this runs on), a swapped copy on a big-endian one.
 */
export function littleEndianBytes(data: Float32Array | Float64Array): Uint8Array {
  if (HOST_IS_LITTLE_ENDIAN) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  const bytes = new Uint8Array(data.byteLength);
  const view = new DataView(bytes.buffer);
  const size = data.BYTES_PER_ELEMENT;
  data.forEach((value, index) => {
    if (size === 4) view.setFloat32(index * 4, value, true);
    else view.setFloat64(index * 8, value, true);
  });
  return bytes;
}
