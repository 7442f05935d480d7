/**
 * Observation specs and writers (DESIGN.md §5, §13, §19). Every observation is one flat Float32Array
 * row; the spec names its slices. The task declares its slices: a state observation holds those
 * marked 'state' (the default), in order; a point-cloud observation holds N points sampled on the
 * scene's geoms, then the slices marked 'pointcloud'; an image observation (rgb, rgbd) holds the
 * slices marked with its mode, and its camera images travel beside the row as uint8 (spec.image).
 */
import type { TaskView } from './task-api';
import type { ObservationEntry, TaskDefinition } from './task-definition';
import type { ObsMode, ObsSlice, ObsSpec } from './task-types';
import type { SceneModel } from './scene-model';
import { createSurfaceSampler, DEFAULT_NUM_POINTS, writePointCloud, type SurfaceSampler } from './pointcloud';
import { isImageObsMode } from './task-types';
import { DEFAULT_CAMERA, DEFAULT_IMAGE_SIZE, requestedImageLayout } from './camera/image-layout';

/** The cameras and image size an image observation asks for (env.camera, env.image_size). */
export interface ImageRequest {
  cameras: readonly string[];
  size: number;
}

const DEFAULT_IMAGE_REQUEST: ImageRequest = { cameras: [DEFAULT_CAMERA], size: DEFAULT_IMAGE_SIZE };

/** The task's observation entries of `mode`, in declaration order. */
function entriesOf(task: TaskDefinition, mode: ObsMode): ObservationEntry[] {
  return task.observation.filter((entry) => entry.modes.includes(mode));
}

/** The layout of `mode`'s observation row; for image modes also the images asked for (`image`, the default camera at 64×64 without it). */
export function observationSpec(task: TaskDefinition, mode: ObsMode, numPoints = DEFAULT_NUM_POINTS, image: ImageRequest = DEFAULT_IMAGE_REQUEST): ObsSpec {
  const slices: ObsSlice[] = [];
  let start = 0;
  const add = (name: string, dim: number, doc: string) => {
    slices.push({ name, start, dim, doc });
    start += dim;
  };
  if (mode === 'pointcloud') add('points', numPoints * 3, `${numPoints} surface points [N, 3], world frame (m)`);
  for (const entry of entriesOf(task, mode)) for (const slice of entry.slices) add(slice.name, slice.dim, slice.doc);
  return {
    mode, dim: start, slices,
    ...(mode === 'pointcloud' ? { numPoints } : {}),
    ...(isImageObsMode(mode) ? { image: requestedImageLayout(mode as 'rgb' | 'rgbd', image.cameras, image.size) } : {}),
  };
}

/** Writes one observation row; point clouds are sampled from the scene's geoms. */
export class ObservationWriter {
  readonly spec: ObsSpec;
  private readonly sampler: SurfaceSampler | null;
  private readonly entries: readonly ObservationEntry[];

  constructor(readonly task: TaskDefinition, scene: SceneModel, mode: ObsMode, numPoints = DEFAULT_NUM_POINTS, image?: ImageRequest) {
    this.spec = observationSpec(task, mode, numPoints, image);
    this.entries = entriesOf(task, mode);
    this.sampler = mode === 'pointcloud' ? createSurfaceSampler(scene, numPoints, task.pointCloud) : null;
  }

  write(view: TaskView, out: Float32Array, offset: number): void {
    let cursor = offset;
    if (this.sampler) {
      writePointCloud(this.sampler, view.arrays, out, cursor);
      cursor += this.sampler.numPoints * 3;
    }
    for (const entry of this.entries) {
      entry.read(view, out, cursor);
      cursor += entry.dim;
    }
  }

  get pointSampler(): SurfaceSampler | null {
    return this.sampler;
  }
}
