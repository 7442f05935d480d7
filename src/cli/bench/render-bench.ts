/**
 * The env bench's rendering rows (DESIGN.md §19): frames per second of a task's first camera,
 * ray cast by MuJoCo (mj_multiRay, one ray per pixel) at several image sizes, and what the depth
 * point cloud costs inside an env step: the share of the step spent casting and shading the
 * camera's rays, and the share of the whole cloud (rays, back-projection, crop, farthest-point sampling).
 */
import type { BenchRow } from './bench-row';
import type { Mujoco } from '../../core/envs/mujoco-types';
import { VectorEnv } from '../../core/envs/vector-env';
import { getTask } from '../../core/envs/task-registry';
import { modelCameraNames } from '../../core/envs/camera/camera-lookup';
import { RayCastCamera } from '../../core/envs/camera/ray-cast-camera';
import { SceneModel } from '../../core/envs/scene-model';
import { createRng } from '../../core/random';

/** Image sides whose frame rates are reported. */
export const RENDER_SIZES = [32, 64, 128] as const;
/** The image side of the step-share rows: env.image_size's default. */
const SHARE_SIZE = 64;
const SHARE_ENVS = 4;
const MEASURE_MS = 1000;
const WARMUP_MS = 300;

/** Frames per second of `render` over `ms`, after a warm-up. */
function frameRate(render: () => void, ms = MEASURE_MS): number {
  const warm = performance.now();
  while (performance.now() - warm < WARMUP_MS) render();
  let frames = 0;
  const start = performance.now();
  while (performance.now() - start < ms) {
    render();
    frames++;
  }
  return frames / ((performance.now() - start) / 1000);
}

/** The first camera of `task`'s scene, or undefined when it has none. */
function firstCamera(mj: Mujoco, task: string): string | undefined {
  const scene = new SceneModel(mj, getTask(task).scene);
  try {
    return modelCameraNames(mj, scene.model)[0];
  } finally {
    scene.dispose();
  }
}

/** Frame rates at each size, rendering a reset env's scene in the calling thread. */
function frameRateRows(mj: Mujoco, task: string, camera: string): BenchRow[] {
  const env = new VectorEnv(mj, { task, numEnvs: 1, recordEpisodes: false });
  try {
    env.reset([0]);
    const data = env.env(0).data;
    return RENDER_SIZES.map((size) => {
      const renderer = new RayCastCamera(mj, env.scene.model, camera, { imageSize: size });
      try {
        const frame = renderer.createFrame();
        const fps = frameRate(() => renderer.render(data, frame));
        return {
          group: 'env', task, metric: `render_fps_${size}`, value: fps, unit: 'frames/s',
          note: `camera '${camera}', ${size}×${size}: one mj_multiRay call of ${size * size} rays, then depth, geom ids and shaded rgb; one thread`,
        } satisfies BenchRow;
      } finally {
        renderer.delete();
      }
    });
  } finally {
    env.dispose();
  }
}

/** Env steps per second with depth_pointcloud observations, and the shares of the step its camera and its cloud take. */
function stepShareRows(mj: Mujoco, task: string, camera: string): BenchRow[] {
  const env = new VectorEnv(mj, { task, numEnvs: SHARE_ENVS, obsMode: 'depth_pointcloud', cameras: [camera], imageSize: SHARE_SIZE, recordEpisodes: false });
  try {
    const cloud = env.env(0).writer.depthPointCloud!;
    let renderMs = 0;
    let cloudMs = 0;
    // The batch's envs share one writer; its camera and cloud are timed where they run.
    for (const renderer of cloud.cameras) {
      const render = renderer.render.bind(renderer);
      renderer.render = (data, frame) => {
        const start = performance.now();
        const rendered = render(data, frame);
        renderMs += performance.now() - start;
        return rendered;
      };
    }
    const write = cloud.write.bind(cloud);
    cloud.write = (data, out, offset) => {
      const start = performance.now();
      write(data, out, offset);
      cloudMs += performance.now() - start;
    };
    const actionDim = env.config.actionDim;
    const rng = createRng(7);
    const actions = new Float32Array(SHARE_ENVS * actionDim);
    env.reset(Array.from({ length: SHARE_ENVS }, (_, envIndex) => envIndex));
    const step = () => {
      for (let element = 0; element < actions.length; element++) actions[element] = 2 * rng.uniform() - 1;
      env.step(actions);
    };
    frameRate(step, 200);
    renderMs = 0;
    cloudMs = 0;
    let steps = 0;
    const start = performance.now();
    while (performance.now() - start < MEASURE_MS) {
      step();
      steps++;
    }
    const totalMs = performance.now() - start;
    const note = `${SHARE_ENVS} envs, camera '${camera}' at ${SHARE_SIZE}×${SHARE_SIZE}, ${env.config.numPoints} points by farthest-point sampling, random actions; one thread`;
    return [
      { group: 'env', task, metric: 'depth_cloud_env_steps_per_s', value: (steps * SHARE_ENVS) / (totalMs / 1000), unit: 'steps/s', note: `env.obs_type=depth_pointcloud; ${note}` },
      { group: 'env', task, metric: 'render_share_of_env_step', value: renderMs / totalMs, unit: 'fraction', note: `time casting and shading the camera's rays / env step time; ${note}` },
      { group: 'env', task, metric: 'depth_cloud_share_of_env_step', value: cloudMs / totalMs, unit: 'fraction', note: `the whole cloud (rays, back-projection, crop, sampling) / env step time; ${note}` },
    ];
  } finally {
    env.dispose();
  }
}

/** Rendering rows for each of `tasks` whose scene names a camera; a task without one gets none. */
export function renderBenchRows(mj: Mujoco, tasks: readonly string[]): BenchRow[] {
  const rows: BenchRow[] = [];
  for (const task of tasks) {
    const camera = firstCamera(mj, task);
    if (camera === undefined) continue;
    console.error(`env bench: rendering ${task}'s camera '${camera}'`);
    rows.push(...frameRateRows(mj, task, camera), ...stepShareRows(mj, task, camera));
  }
  return rows;
}
