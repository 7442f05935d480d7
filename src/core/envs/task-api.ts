/**
 * The task contract (DESIGN.md §13): what a task module exports, built-in or a user's own. A task
 * is a plain ES module whose default export is `defineTask({...})` (or the same object without
 * the call) plus its MJCF; the core knows tasks only through this file. Semantics are
 * Gymnasium's: `terminated` ends the MDP, the time limit truncates; rewards are any finite number.
 */
import type { Rng } from '../random';
import type { DataArrays } from './data-arrays';
import type { MjData, MjModel, Mujoco } from './mujoco-types';

// What a task module may need besides the contract, so that it imports this module only.
export type { Rng } from '../random';
export type { DataArrays } from './data-arrays';
export type { MjData, MjModel, Mujoco } from './mujoco-types';
export { TaskError } from '../errors';

/** MuJoCo object kinds a task can look up by name. */
export type NamedKind = 'body' | 'joint' | 'geom' | 'site' | 'actuator' | 'sensor' | 'mocap';

/** Everything a task reads and writes about one env at one instant. */
export interface TaskView {
  readonly mj: Mujoco;
  readonly model: MjModel;
  readonly data: MjData;
  /** Live typed-array views of data (qpos, qvel, ctrl, site and geom poses, sensordata, mocap_pos, ...); copy numbers out. */
  readonly arrays: DataArrays;
  /** The task's own per-episode values (goal, rest heights, ...): `stateSize` float64s, saved with a run's env state. */
  readonly state: Float64Array;
  /** The config's env.reward, for tasks that declare a sparse variant. */
  readonly rewardMode: RewardMode;
  /** The physics went unstable this step (non-finite state, or a MuJoCo reset); the step is truncated whatever `step` says. */
  readonly unstable: boolean;
  /** Id of a named object (mocap: its mocap index), or -1 when the scene has none. */
  id(kind: NamedKind, name: string): number;
  /** qpos address of a named joint; throws a TaskError naming it when the scene has no such joint. */
  qposAddress(joint: string): number;
  /** qvel (dof) address of a named joint; throws like qposAddress. */
  qvelAddress(joint: string): number;
}

export type RewardMode = 'dense' | 'sparse';

/** One named slice of the observation, written by `read` at out[offset..offset + dim). */
export interface ObservationSlice {
  name: string;
  dim: number;
  doc?: string;
  read(view: TaskView, out: Float32Array, offset: number): void;
  /**
   * Which observations carry it: 'state' (the default), 'pointcloud' (beside the scene's points, surface-sampled or
   * from a depth camera) and/or 'rgb' and 'rgbd' (beside camera images: the proprioception an image policy reads).
   */
  modes?: readonly ObservationSliceMode[];
}

/** Several slices written by one function, in order (cheaper when they share work). */
export interface ObservationGroup {
  slices: readonly { name: string; dim: number; doc?: string }[];
  read(view: TaskView, out: Float32Array, offset: number): void;
  modes?: readonly ObservationSliceMode[];
}

/**
 * The observation an env gives: the state vector; N points sampled on the scene's geom surfaces
 * ('pointcloud'); N points from the scene's cameras' depth ('depth_pointcloud'); or camera images,
 * rgb or rgb plus a depth byte ('rgb', 'rgbd'), beside proprioception (DESIGN.md §19).
 */
export type ObsMode = 'state' | 'pointcloud' | 'depth_pointcloud' | 'rgb' | 'rgbd';
/** Which observations a slice joins: 'pointcloud' slices sit beside the points of both point-cloud observations. */
export type ObservationSliceMode = 'state' | 'pointcloud' | 'rgb' | 'rgbd';

/**
 * How an action in [-1, 1] drives the scene: `motor` and `position` scale each action dim to its
 * actuator's ctrlrange (torques, or position targets), one dim per actuator; `custom` writes ctrl
 * itself (an IK-style space), with `dim` action values.
 */
export type TaskControl =
  | { kind: 'motor' }
  | { kind: 'position' }
  | { kind: 'custom'; dim: number; act(view: TaskView, action: ArrayLike<number>, offset: number): void };

/** What `step` reports after the physics of one control step. */
export interface TaskStepResult {
  reward: number;
  /** The MDP ended (success, a fall, ...); the time limit is the env's, not the task's. */
  terminated: boolean;
  /** Reported only by tasks with a success rule (`hasSuccess`). */
  success?: boolean;
  /** Extra numbers a host may log. */
  info?: Record<string, number>;
}

/** A closed-loop scripted policy that makes demonstrations; `reset` at each episode start. */
export interface TaskExpert {
  reset(): void;
  /** Writes an action in [-1, 1] for the expert's control at out[0..dim). */
  act(view: TaskView, out: Float32Array): void;
}

/** Hints for the 3D views and videos. */
export interface TaskRender {
  /** World-frame camera (z up). */
  camera?: { position: [number, number, number]; target: [number, number, number] };
  /** A body the camera follows across the floor (a walker's torso), keeping its offset and height. */
  trackBody?: string;
  /** A site whose path the views draw (an end-effector); TCP paths need it. */
  endEffectorSite?: string;
  /**
   * The scene's qpos as one observation frame shows it (for views drawn from an observation rather
   * than a recorded episode): write what the frame gives into `qpos`, which starts at the home pose;
   * return false when the frame does not show the task's objects. `mocapPos` [nmocap × 3] starts
   * where the scene puts its mocap bodies; write a goal marker's position there.
   */
  qposFromObservation?(slices: Readonly<Record<string, Float32Array>>, qpos: Float64Array, view: Pick<TaskView, 'id' | 'qposAddress'>, mocapPos: Float64Array): boolean;
  /**
   * The end-effector path a planned chunk of actions implies, for TCP paths: from the site's
   * position `start` and one frame's actions [steps × A], write [steps × 3] positions into `out`.
   * Only controls that move the site by known amounts can say; without it no path is drawn.
   */
  actionPath?(control: string, start: ArrayLike<number>, actions: Float32Array, steps: number, out: Float32Array): boolean;
}

/** Geoms the point-cloud observations leave out or favour, by name, and the depth cloud's workspace. */
export interface TaskPointCloud {
  /** Never sampled (a floor, a table, a goal marker); planes are left out anyway. A camera still sees them, but their depth gives no points. */
  exclude?: readonly string[];
  /** The task's objects: they share `objectShare` of the points, so they stay visible. */
  objects?: readonly string[];
  objectShare?: number;
  /**
   * The depth point cloud keeps only points inside this world box (metres; a bound may be ±Infinity),
   * as DP3 crops to the workspace. Default: everything above z = 0.005, which drops a floor or table top at z = 0.
   */
  workspace?: { min: readonly [number, number, number]; max: readonly [number, number, number] };
}

/** The scene: MJCF text, a path relative to the module (meshes beside it), or a function returning MJCF. */
export type TaskScene = string | (() => string);

export interface TaskSpec {
  /** Unique; recorded in checkpoints with a hash of the scene and module. */
  name: string;
  /** A short description for pickers and help. */
  doc?: string;
  scene: TaskScene;
  /** One control, or several by name (the config's env.control_mode picks; `defaultControl` otherwise). */
  control?: TaskControl;
  controls?: Readonly<Record<string, TaskControl>>;
  defaultControl?: string;
  /** Physics steps per action. */
  frameSkip: number;
  maxEpisodeSteps: number;
  observation: readonly (ObservationSlice | ObservationGroup)[];
  /** Float64s of per-episode task state (view.state); 0 by default. */
  stateSize?: number;
  /** true when `step` reports `success`; charts, tables and sweeps rank by return otherwise. */
  hasSuccess?: boolean;
  /** The reward modes `step` honours through view.rewardMode (default: dense only). */
  rewardModes?: readonly RewardMode[];
  /** The named keyframe episodes start from (default 'home' when the scene has it, else qpos0). */
  keyframe?: string;
  /**
   * Hashes of earlier versions of this task that differ from it only where neither the physics nor an
   * observation that existed then looks (a camera added or moved): their checkpoints load without
   * accept_task_version. Any other change must leave them out.
   */
  formerHashes?: readonly string[];
  /**
   * false switches MuJoCo's constraint-island discovery off on the compiled scene, for speed only
   * (default true, MuJoCo's default). Set it only where the task's tests show the physics is
   * bit-identical either way, as on a body of one kinematic tree; it is not part of the task's
   * hash, so checkpoints made either way stay valid.
   */
  islands?: boolean;
  /** Seeded randomization from the default pose; the physics is forwarded after it. */
  reset(view: TaskView, rng: Rng): void;
  step(view: TaskView): TaskStepResult;
  /** A scripted expert, acting in `control` (a name of `controls`, or the only control). */
  expert?: { control?: string; create(noise: number, rng: Rng): TaskExpert };
  render?: TaskRender;
  pointCloud?: TaskPointCloud;
}

/**
 * Marks a task module's default export; it returns the spec as given. The loader checks every
 * field before a task is used, so a plain object works the same (a task folder dropped into the
 * studio is one self-contained module and imports nothing).
 */
export function defineTask(spec: TaskSpec): TaskSpec {
  return spec;
}
