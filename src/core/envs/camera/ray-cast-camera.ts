/**
 * A named `<camera>` of a compiled model rendered by MuJoCo's own ray casting (DESIGN.md §19): one
 * ray per pixel through its centre, cast from the camera's position in one mj_multiRay call, with
 * the hit normals for shading. The same wasm gives the same bits in Node, the studio and every env
 * worker: nothing here reads a clock or an unseeded random source.
 *
 * Owns wasm buffers: one owner calls delete().
 */
import { ConfigError } from '../../errors';
import type { DoubleBuffer, IntBuffer, MjData, MjModel, Mujoco } from '../mujoco-types';
import { cameraIdByName } from './camera-lookup';
import { createCameraFrame, NO_HIT_DEPTH, NO_HIT_GEOM, type CameraFrame, type CameraPose } from './camera-frame';
import { cameraFrameRays, DEFAULT_IMAGE_SIZE, rotateInto } from './pinhole';
import { BACKGROUND_RGB, geomBaseColours, lightIntensity, shadedChannel } from './surface-shading';

/** Geom groups a camera sees unless told otherwise: the ones MuJoCo's default visualizer shows (0, 1 and 2). */
export const DEFAULT_GEOM_GROUPS: readonly number[] = [0, 1, 2];
/** MuJoCo's number of geom groups (mjNGROUP). */
const GEOM_GROUP_COUNT = 6;
/** Rays are cut beyond this depth in metres unless told otherwise: farther than any table-top scene. */
export const DEFAULT_FAR = 10;

export interface RayCastCameraOptions {
  /** Image side in pixels (default 64). */
  imageSize?: number;
  /** Geom groups the rays see (default 0, 1, 2); geoms of other groups, and fully transparent ones (alpha 0), are invisible. */
  geomGroups?: readonly number[];
  /** Largest depth in metres that still counts as a hit (default 10). */
  far?: number;
}

export class RayCastCamera {
  readonly cameraId: number;
  readonly imageSize: number;
  /** Vertical field of view in degrees (the model's cam_fovy). */
  readonly fovy: number;
  readonly far: number;
  private readonly rayCount: number;
  /** [pixels, 3] ray directions in the camera frame, z = −1. */
  private readonly localRays: Float64Array;
  /** [pixels, 3] the same rays in the world frame; JS memory, which the binding copies into wasm. */
  private readonly worldRays: Float64Array;
  private readonly groupMask: number[];
  /** [ngeom, 3] */
  private readonly colours: Float32Array;
  private readonly hitGeoms: IntBuffer;
  private readonly hitDistances: DoubleBuffer;
  private readonly hitNormals: DoubleBuffer;
  private deleted = false;

  constructor(private readonly mj: Mujoco, private readonly model: MjModel, readonly name: string, options: RayCastCameraOptions = {}) {
    this.cameraId = cameraIdByName(mj, model, name);
    this.imageSize = options.imageSize ?? DEFAULT_IMAGE_SIZE;
    this.fovy = (model.cam_fovy as Float64Array)[this.cameraId];
    this.far = options.far ?? DEFAULT_FAR;
    if (!(this.far > 0)) throw new ConfigError('env.camera', `a camera's far limit must be a positive depth in metres, got ${this.far}`);
    this.localRays = cameraFrameRays(this.imageSize, this.fovy);
    this.rayCount = this.imageSize * this.imageSize;
    this.worldRays = new Float64Array(3 * this.rayCount);
    this.groupMask = geomGroupMask(options.geomGroups ?? DEFAULT_GEOM_GROUPS);
    this.colours = geomBaseColours(model);
    this.hitGeoms = new mj.IntBuffer(this.rayCount);
    this.hitDistances = new mj.DoubleBuffer(this.rayCount);
    this.hitNormals = new mj.DoubleBuffer(3 * this.rayCount);
  }

  /** A frame of this camera's size, to render into again and again. */
  createFrame(): CameraFrame {
    return createCameraFrame(this.imageSize);
  }

  /** The camera's pose in `data` (cam_xpos, cam_xmat) as of its last kinematics pass, copied out of wasm memory. */
  pose(data: MjData): CameraPose {
    const position = (data.cam_xpos as Float64Array).slice(this.cameraId * 3, this.cameraId * 3 + 3);
    const rotation = (data.cam_xmat as Float64Array).slice(this.cameraId * 9, this.cameraId * 9 + 9);
    return { position, rotation };
  }

  /** Renders the scene as `data` holds it into `frame` (a new one when not given) and returns it. */
  render(data: MjData, frame: CameraFrame = this.createFrame()): CameraFrame {
    if (this.deleted) throw new ConfigError('env.camera', `camera '${this.name}' was deleted and cannot render`);
    if (frame.size !== this.imageSize) throw new ConfigError('env.image_size', `a ${frame.size}-pixel frame cannot hold camera '${this.name}''s ${this.imageSize}-pixel image`);
    const { position, rotation } = this.pose(data);
    // World directions keep the camera-frame scale, so each hit's ray parameter is its z-depth.
    const local = this.localRays;
    for (let ray = 0; ray < this.rayCount; ray++) rotateInto(rotation, local[ray * 3], local[ray * 3 + 1], local[ray * 3 + 2], this.worldRays, ray * 3);
    const origin = [position[0], position[1], position[2]];
    if (!this.castRays(data, origin)) {
      // The binding copies the directions into wasm memory before it reads the out-views; when that copy
      // grew the heap, the views it was given were detached and MuJoCo refused them. Fresh views fit now.
      if (!this.castRays(data, origin)) throw new ConfigError('env.camera', `camera '${this.name}' could not cast its rays: the wasm heap kept growing under the call`);
    }
    // Views are read after the call: the wasm heap may have grown during it.
    this.writeFrame(this.hitGeoms.GetView() as Int32Array, this.hitDistances.GetView() as Float64Array, this.hitNormals.GetView() as Float64Array, frame);
    return frame;
  }

  /** One mj_multiRay call; false when the out-views were detached under it (MuJoCo then refuses their size). */
  private castRays(data: MjData, origin: number[]): boolean {
    const views = [this.hitGeoms.GetView() as Int32Array, this.hitDistances.GetView() as Float64Array, this.hitNormals.GetView() as Float64Array] as const;
    try {
      // The binding's typing says number[]; it reads any array of numbers.
      this.mj.mj_multiRay(this.model, data, origin, this.worldRays as unknown as number[], this.groupMask, true, -1, views[0], views[1], views[2], this.rayCount, this.far);
      return true;
    } catch (error) {
      if (views.some((view) => view.buffer.byteLength === 0)) return false;
      throw error;
    }
  }

  private writeFrame(hitGeoms: Int32Array, hitDistances: Float64Array, hitNormals: Float64Array, frame: CameraFrame): void {
    const { depth, geomIds, rgb } = frame;
    const colours = this.colours;
    for (let pixel = 0; pixel < this.rayCount; pixel++) {
      const geomId = hitGeoms[pixel];
      const distance = hitDistances[pixel];
      if (geomId < 0 || !(distance >= 0) || distance > this.far) {
        depth[pixel] = NO_HIT_DEPTH;
        geomIds[pixel] = NO_HIT_GEOM;
        rgb[pixel * 3] = BACKGROUND_RGB[0];
        rgb[pixel * 3 + 1] = BACKGROUND_RGB[1];
        rgb[pixel * 3 + 2] = BACKGROUND_RGB[2];
        continue;
      }
      depth[pixel] = distance;
      geomIds[pixel] = geomId;
      const intensity = lightIntensity(hitNormals[pixel * 3], hitNormals[pixel * 3 + 1], hitNormals[pixel * 3 + 2]);
      for (let channel = 0; channel < 3; channel++) rgb[pixel * 3 + channel] = shadedChannel(colours[geomId * 3 + channel], intensity);
    }
  }

  /** Frees the wasm buffers; calling it again does nothing. */
  delete(): void {
    if (this.deleted) return;
    this.deleted = true;
    this.hitGeoms.delete();
    this.hitDistances.delete();
    this.hitNormals.delete();
  }

  get isDeleted(): boolean {
    return this.deleted;
  }
}

/** MuJoCo's per-group on/off bytes from a list of group numbers. */
function geomGroupMask(groups: readonly number[]): number[] {
  const mask = new Array<number>(GEOM_GROUP_COUNT).fill(0);
  for (const group of groups) {
    if (!Number.isInteger(group) || group < 0 || group >= GEOM_GROUP_COUNT) {
      throw new ConfigError('env.camera', `geom group ${group} does not exist; MuJoCo's geom groups are 0 to ${GEOM_GROUP_COUNT - 1}`);
    }
    mask[group] = 1;
  }
  return mask;
}
