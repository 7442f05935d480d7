/**
 * Observation specs and writers (DESIGN.md §5, §13, §19). Every observation is one flat Float32Array
 * row; the spec names its slices. The task declares its slices: a state observation holds those
 * marked 'state' (the default), in order; a point-cloud observation holds N points, then the slices
 * marked 'pointcloud'. The points are sampled on the scene's geoms ('pointcloud') or back-projected
 * from the scene's cameras' depth ('depth_pointcloud'); both are [N, 3] in the world frame. An image
 * observation (rgb, rgbd) holds the slices marked with its mode, and its camera images travel beside
 * the row as uint8 (spec.image).
 */
import type { TaskView } from './task-api';
import type { ObservationEntry, TaskDefinition } from './task-definition';
import { hasPointCloud, isImageObsMode, sliceModeOf, type ObsMode, type ObsSlice, type ObsSpec } from './task-types';
import type { SceneModel } from './scene-model';
import { createSurfaceSampler, DEFAULT_NUM_POINTS, writePointCloud, type SurfaceSampler } from './pointcloud';
import { requestedImageLayout } from './camera/image-layout';
import { DEFAULT_IMAGE_SIZE } from './camera/pinhole';
import { DepthPointCloud } from './camera/depth-point-cloud';
import { DEFAULT_CAMERA, resolveCameraNames } from './camera/camera-lookup';

/**
 * The cameras an observation reads (env.camera, env.image_size): a depth point cloud's, or an image
 * observation's. Names are the config's ('default': the scene's first camera) until a scene resolves them.
 */
export interface ObservationCameras {
  cameras?: readonly string[];
  imageSize?: number;
}

/** The task's observation entries that `mode` carries, in declaration order. */
function entriesOf(task: TaskDefinition, mode: ObsMode): ObservationEntry[] {
  return task.observation.filter((entry) => entry.modes.includes(sliceModeOf(mode)));
}

const POINTS_DOC: Record<'pointcloud' | 'depth_pointcloud', (numPoints: number) => string> = {
  pointcloud: (numPoints) => `${numPoints} surface points [N, 3], world frame (m)`,
  depth_pointcloud: (numPoints) => `${numPoints} depth-camera points [N, 3], world frame (m)`,
};

/** The layout of `mode`'s observation row; for image modes also the images asked for (`cameras`; the default camera at 64×64 without it). */
export function observationSpec(task: TaskDefinition, mode: ObsMode, numPoints = DEFAULT_NUM_POINTS, cameras: ObservationCameras = {}): ObsSpec {
  const slices: ObsSlice[] = [];
  let start = 0;
  const add = (name: string, dim: number, doc: string) => {
    slices.push({ name, start, dim, doc });
    start += dim;
  };
  if (hasPointCloud(mode)) add('points', numPoints * 3, POINTS_DOC[mode](numPoints));
  for (const entry of entriesOf(task, mode)) for (const slice of entry.slices) add(slice.name, slice.dim, slice.doc);
  return {
    mode, dim: start, slices,
    ...(hasPointCloud(mode) ? { numPoints } : {}),
    ...(isImageObsMode(mode) ? { image: requestedImageLayout(mode, cameras.cameras ?? [DEFAULT_CAMERA], cameras.imageSize ?? DEFAULT_IMAGE_SIZE) } : {}),
  };
}

/** Geom ids of the names the task's point clouds leave out (names the scene lacks are skipped). */
function excludedGeomIds(task: TaskDefinition, scene: SceneModel): number[] {
  return (task.pointCloud.exclude ?? []).map((name) => scene.id('geom', name)).filter((geomId) => geomId >= 0);
}

/**
 * Writes one observation row; point clouds are sampled from the scene's geoms or rendered from its
 * cameras. A depth cloud holds wasm buffers: the owner calls dispose().
 */
export class ObservationWriter {
  readonly spec: ObsSpec;
  private readonly sampler: SurfaceSampler | null;
  private readonly depthCloud: DepthPointCloud | null;
  private readonly entries: readonly ObservationEntry[];

  constructor(readonly task: TaskDefinition, scene: SceneModel, mode: ObsMode, numPoints = DEFAULT_NUM_POINTS, cameras: ObservationCameras = {}) {
    this.spec = observationSpec(task, mode, numPoints, cameras);
    this.entries = entriesOf(task, mode);
    this.sampler = mode === 'pointcloud' ? createSurfaceSampler(scene, numPoints, task.pointCloud) : null;
    this.depthCloud = mode === 'depth_pointcloud'
      ? new DepthPointCloud(scene.mj, scene.model, {
        cameras: resolveCameraNames(scene.mj, scene.model, cameras.cameras, task.name), imageSize: cameras.imageSize, numPoints,
        workspace: task.pointCloud.workspace, hiddenGeomIds: excludedGeomIds(task, scene),
      })
      : null;
  }

  write(view: TaskView, out: Float32Array, offset: number): void {
    let cursor = offset;
    if (this.sampler) {
      writePointCloud(this.sampler, view.arrays, out, cursor);
      cursor += this.sampler.numPoints * 3;
    } else if (this.depthCloud) {
      this.depthCloud.write(view.data, out, cursor);
      cursor += this.depthCloud.numPoints * 3;
    }
    for (const entry of this.entries) {
      entry.read(view, out, cursor);
      cursor += entry.dim;
    }
  }

  get pointSampler(): SurfaceSampler | null {
    return this.sampler;
  }

  /** The depth cloud's cameras and latest frames, when this writer renders one. */
  get depthPointCloud(): DepthPointCloud | null {
    return this.depthCloud;
  }

  /** Frees the depth cloud's cameras; calling it again does nothing. */
  dispose(): void {
    this.depthCloud?.delete();
  }
}
