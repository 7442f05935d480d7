/**
 * The depth point-cloud observation (DESIGN.md §19): render each named camera's depth by ray casting,
 * back-project it to world points, fuse the cameras, crop to the workspace box and down-sample to
 * N points, as DP3 and ManiFlow make their clouds from real depth cameras. Occlusion comes with it:
 * only surfaces a camera sees give points. Layout matches the surface-sampled cloud: [N, 3] world frame.
 *
 * Owns its cameras' wasm buffers: one owner calls delete().
 */
import { ConfigError } from '../../errors';
import { createRng } from '../../random';
import type { MjData, MjModel, Mujoco } from '../mujoco-types';
import type { CameraFrame } from './camera-frame';
import { backProjectDepthInto } from './depth-back-projection';
import { cameraFrameRays, DEFAULT_IMAGE_SIZE } from './pinhole';
import { farthestPointIndices, seededRandomIndices, writeSampledPoints, type DownsampleMethod } from './point-downsample';
import { RayCastCamera } from './ray-cast-camera';
import { cropToWorkspace, DEFAULT_WORKSPACE, type WorkspaceBox } from './workspace-box';

export interface DepthPointCloudOptions {
  /** Camera names, fused in this order. */
  cameras: readonly string[];
  numPoints: number;
  /** Image side of every camera (default 64). */
  imageSize?: number;
  /** Points outside are dropped (default DEFAULT_WORKSPACE). */
  workspace?: WorkspaceBox;
  /** Geoms whose hits give no point (a goal marker, a table); they still hide what lies behind them. */
  hiddenGeomIds?: readonly number[];
  /** 'fps' (default, stateless) or 'random' (a fresh stream from `seed` at every frame, so a frame's sample depends on that frame only). */
  method?: DownsampleMethod;
  seed?: number;
}

export class DepthPointCloud {
  readonly numPoints: number;
  readonly cameras: readonly RayCastCamera[];
  /** Each camera's latest image, in camera order. */
  readonly frames: readonly CameraFrame[];
  private readonly localRays: readonly Float64Array[];
  private readonly workspace: WorkspaceBox;
  private readonly hiddenGeoms: Uint8Array;
  private readonly method: DownsampleMethod;
  private readonly seed: number;
  /** [cameras · pixels, 3] fused points before the crop. */
  private readonly points: Float64Array;
  private readonly indices: Int32Array;
  private readonly scratch: Float64Array;
  private readonly order: Int32Array;

  constructor(mj: Mujoco, model: MjModel, options: DepthPointCloudOptions) {
    const { numPoints } = options;
    if (!Number.isInteger(numPoints) || numPoints < 1) throw new ConfigError('env.num_points', `env.num_points must be a positive integer, got ${numPoints}`);
    if (options.cameras.length === 0) throw new ConfigError('env.camera', 'a depth point cloud needs at least one camera');
    this.numPoints = numPoints;
    this.workspace = options.workspace ?? DEFAULT_WORKSPACE;
    this.method = options.method ?? 'fps';
    this.seed = options.seed ?? 0;
    this.hiddenGeoms = new Uint8Array(model.ngeom);
    for (const geomId of options.hiddenGeomIds ?? []) this.hiddenGeoms[geomId] = 1;
    const cameras: RayCastCamera[] = [];
    try {
      for (const name of options.cameras) cameras.push(new RayCastCamera(mj, model, name, { imageSize: options.imageSize ?? DEFAULT_IMAGE_SIZE }));
    } catch (error) {
      for (const camera of cameras) camera.delete();
      throw error;
    }
    this.cameras = cameras;
    this.frames = cameras.map((camera) => camera.createFrame());
    this.localRays = cameras.map((camera) => cameraFrameRays(camera.imageSize, camera.fovy));
    const capacity = cameras.reduce((sum, camera) => sum + camera.imageSize * camera.imageSize, 0);
    this.points = new Float64Array(capacity * 3);
    this.indices = new Int32Array(numPoints);
    this.scratch = new Float64Array(capacity);
    this.order = new Int32Array(capacity);
  }

  /** Renders every camera in `data` and writes the [N, 3] cloud at out[offset]. */
  write(data: MjData, out: Float32Array, offset: number): void {
    let count = 0;
    this.cameras.forEach((camera, cameraIndex) => {
      const frame = camera.render(data, this.frames[cameraIndex]);
      const geomIds = frame.geomIds;
      count = backProjectDepthInto(frame.depth, this.localRays[cameraIndex], camera.pose(data), this.points, count, (pixel) => this.hiddenGeoms[geomIds[pixel]] === 1);
    });
    count = cropToWorkspace(this.points, count, this.workspace);
    const indices = this.method === 'fps'
      ? farthestPointIndices(this.points, count, this.numPoints, this.indices, this.scratch)
      : seededRandomIndices(count, this.numPoints, createRng(this.seed), this.indices, this.order);
    writeSampledPoints(this.points, count, indices, this.numPoints, out, offset);
  }

  /** Frees every camera's wasm buffers; calling it again does nothing. */
  delete(): void {
    for (const camera of this.cameras) camera.delete();
  }
}
