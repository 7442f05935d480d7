/**
 * A minimal EBML walk over a WebM file's top level: which Segment children it has
 * (a seekable file has Cues), and the Segment duration from Info. Enough to check a
 * rollout video without a demuxer; element ids are Matroska's.
 */
import { ShapeError } from '../errors';

export const EBML_IDS = {
  ebml: 0x1a45dfa3,
  segment: 0x18538067,
  seekHead: 0x114d9b74,
  info: 0x1549a966,
  tracks: 0x1654ae6b,
  cluster: 0x1f43b675,
  cues: 0x1c53bb6b,
  timestampScale: 0x2ad7b1,
  duration: 0x4489,
} as const;

const NAMES = new Map<number, string>([
  [EBML_IDS.seekHead, 'SeekHead'], [EBML_IDS.info, 'Info'], [EBML_IDS.tracks, 'Tracks'],
  [EBML_IDS.cluster, 'Cluster'], [EBML_IDS.cues, 'Cues'],
]);

export interface WebmLayout {
  /** Segment children in file order, e.g. ['SeekHead', 'Info', 'Tracks', 'Cluster', 'Cues']; unknown ids as hex. */
  segmentChildren: string[];
  hasCues: boolean;
  /** Info's Duration × TimestampScale, in seconds; undefined when Info has no Duration. */
  durationSeconds?: number;
}

interface Vint { value: number; width: number; unknown: boolean }

function readVint(bytes: Uint8Array, offset: number, keepMarker: boolean): Vint {
  const first = bytes[offset];
  if (first === undefined || first === 0) throw new ShapeError('bytes', `not an EBML file: bad variable-length integer at byte ${offset}`);
  const width = Math.clz32(first) - 23;
  if (offset + width > bytes.length) throw new ShapeError('bytes', `EBML file ends inside an element header at byte ${offset}`);
  let value = keepMarker ? first : first & (0xff >> width);
  let allOnes = value === (0xff >> width);
  for (let index = 1; index < width; index++) {
    value = value * 256 + bytes[offset + index];
    allOnes &&= bytes[offset + index] === 0xff;
  }
  return { value, width, unknown: !keepMarker && allOnes };
}

interface ElementHeader { id: number; dataStart: number; dataEnd: number; unknownSize: boolean }

function readHeader(bytes: Uint8Array, offset: number, parentEnd: number): ElementHeader {
  const id = readVint(bytes, offset, true);
  const size = readVint(bytes, offset + id.width, false);
  const dataStart = offset + id.width + size.width;
  return { id: id.value, dataStart, dataEnd: size.unknown ? parentEnd : Math.min(parentEnd, dataStart + size.value), unknownSize: size.unknown };
}

function readUint(bytes: Uint8Array, start: number, end: number): number {
  let value = 0;
  for (let index = start; index < end; index++) value = value * 256 + bytes[index];
  return value;
}

function readFloat(bytes: Uint8Array, start: number, end: number): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset + start, end - start);
  if (end - start === 4) return view.getFloat32(0);
  if (end - start === 8) return view.getFloat64(0);
  throw new ShapeError('bytes', `an EBML float has 4 or 8 bytes, got ${end - start}`);
}

function infoDuration(bytes: Uint8Array, start: number, end: number): number | undefined {
  let timestampScale = 1_000_000;
  let duration: number | undefined;
  for (let offset = start; offset < end;) {
    const header = readHeader(bytes, offset, end);
    if (header.id === EBML_IDS.timestampScale) timestampScale = readUint(bytes, header.dataStart, header.dataEnd);
    if (header.id === EBML_IDS.duration) duration = readFloat(bytes, header.dataStart, header.dataEnd);
    offset = header.dataEnd;
  }
  return duration === undefined ? undefined : (duration * timestampScale) / 1e9;
}

/** The top-level layout of a WebM file; throws ShapeError when the bytes are not EBML with a Segment. */
export function webmLayout(bytes: Uint8Array): WebmLayout {
  const head = readHeader(bytes, 0, bytes.length);
  if (head.id !== EBML_IDS.ebml) throw new ShapeError('bytes', 'not a WebM file: it does not start with an EBML header');
  const segment = readHeader(bytes, head.dataEnd, bytes.length);
  if (segment.id !== EBML_IDS.segment) throw new ShapeError('bytes', 'not a WebM file: no Segment after the EBML header');
  const segmentChildren: string[] = [];
  let durationSeconds: number | undefined;
  for (let offset = segment.dataStart; offset < segment.dataEnd;) {
    const child = readHeader(bytes, offset, segment.dataEnd);
    segmentChildren.push(NAMES.get(child.id) ?? `0x${child.id.toString(16)}`);
    if (child.id === EBML_IDS.info) durationSeconds = infoDuration(bytes, child.dataStart, child.dataEnd);
    // A live-stream cluster of unknown size runs to the end: nothing after it can be found this way.
    if (child.unknownSize) break;
    offset = child.dataEnd;
  }
  return { segmentChildren, hasCues: segmentChildren.includes('Cues'), durationSeconds };
}
