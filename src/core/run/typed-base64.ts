/**
 * Typed arrays as base64 of their little-endian bytes, so resume state rides in a
 * checkpoint's JSON metadata bit for bit (float64 physics included).
 */
import { CheckpointError } from '../errors';

const CHUNK = 0x8000;

function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let offset = 0; offset < bytes.length; offset += CHUNK) {
    binary += String.fromCharCode(...bytes.subarray(offset, offset + CHUNK));
  }
  return btoa(binary);
}

function base64ToBytes(text: unknown, field: string, elementBytes: number): Uint8Array {
  if (typeof text !== 'string') throw new CheckpointError(`checkpoint resume field '${field}' must be a base64 string`);
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    throw new CheckpointError(`checkpoint resume field '${field}' is not valid base64`);
  }
  if (binary.length % elementBytes !== 0) {
    throw new CheckpointError(`checkpoint resume field '${field}' holds ${binary.length} bytes, not a whole number of ${elementBytes}-byte values`);
  }
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

// Typed arrays use the platform's byte order; every platform tfjs and MuJoCo run on is little-endian.
export function float32ToBase64(values: Float32Array): string {
  return bytesToBase64(new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
}

export function float64ToBase64(values: Float64Array): string {
  return bytesToBase64(new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
}

export function base64ToFloat32(text: unknown, field: string): Float32Array {
  return new Float32Array(base64ToBytes(text, field, 4).buffer);
}

export function base64ToFloat64(text: unknown, field: string): Float64Array {
  return new Float64Array(base64ToBytes(text, field, 8).buffer);
}

export function uint8ToBase64(values: Uint8Array): string {
  return bytesToBase64(values);
}

export function base64ToUint8(text: unknown, field: string): Uint8Array {
  return base64ToBytes(text, field, 1);
}
