/**
 * One environment: an MjData on a shared SceneModel, driven at 20 Hz with
 * physics substeps (DESIGN.md §5). The vector env owns a batch of these.
 */
import { createRng, type Rng } from '../random';
import { EnvError } from '../errors';
import type { MjData } from './mujoco-types';
import { ARM_DOF, type SceneModel } from './scene-model';
import { ArmController, type ControlMode } from './controller';
import { CONTROL_SUBSTEPS, PHYSICS_TIMESTEP } from './robot-mjcf';
import type { RewardMode, TaskDefinition, TaskEpisodeState, TaskView } from './task-types';
import type { ObservationWriter } from './observation';
import { DataArrays } from './data-arrays';
import { capturePhysics, restorePhysics } from './physics-state';

/** Joint noise at reset, uniform ± this many rad on each arm joint. */
export const RESET_JOINT_NOISE = 0.02;

export interface EnvStepResult {
  reward: number;
  terminated: boolean;
  truncated: boolean;
  success: boolean;
  /** The physics went unstable (non-finite state or a MuJoCo bad-state warning); the step is truncated. */
  unstable: boolean;
}

/** One finished episode, for replay and video. */
export interface EpisodeRecord {
  envIndex: number;
  seed: number;
  episodeReturn: number;
  length: number;
  success: boolean;
  nq: number;
  /** [3] the episode's goal point (world frame); zeros for lift. Mocap goals are not in qpos. */
  goal: number[];
  /** [length + 1, nq] qpos after reset and after each control step. */
  qpos: Float32Array;
  /**
   * [length + 1, obsDim] the observation after reset and after each control step (the last
   * row is the final obs before any auto-reset); empty when recording is off. Absent on
   * records that no TaskEnv wrote (synthetic envs).
   */
  obs?: Float32Array;
}

/** One env mid-episode, exactly (DESIGN.md §6 "Resume state"). */
export interface TaskEnvSnapshot {
  /** capturePhysics(): integration state and derived fields, float64. */
  physics: Float64Array;
  goal: number[];
  objectRestZ: number;
  elapsedSteps: number;
  episodeReturn: number;
  episodeSeed: number;
  everSucceeded: boolean;
  /** [elapsedSteps + 1, nq] recorded so far; empty when recording is off. */
  qpos: Float32Array;
  /** [elapsedSteps + 1, obsDim] recorded so far; empty when recording is off. */
  obs: Float32Array;
}

export class TaskEnv implements TaskView {
  readonly data: MjData;
  readonly arrays: DataArrays;
  readonly episode: TaskEpisodeState = { goal: new Float64Array(3), objectRestZ: 0 };
  private readonly controller: ArmController;
  private elapsedSteps = 0;
  private episodeReturn = 0;
  private episodeSeed = 0;
  private everSucceeded = false;
  private trajectory: Float32Array;
  /** [maxEpisodeSteps + 1, obsDim], preallocated like the qpos trajectory so memory stays bounded. */
  private obsTrajectory: Float32Array;
  /** When set, wall time spent inside mj_step is added to physicsMs (for the env bench). */
  timePhysics = false;
  physicsMs = 0;

  constructor(
    readonly scene: SceneModel,
    readonly task: TaskDefinition,
    readonly writer: ObservationWriter,
    controlMode: ControlMode,
    readonly rewardMode: RewardMode,
    readonly recordQpos: boolean,
    /** The episode cap in force (the task's limit unless the run config sets one). */
    readonly maxEpisodeSteps: number = task.maxEpisodeSteps,
  ) {
    this.data = scene.createData();
    this.arrays = new DataArrays(this.data);
    this.controller = new ArmController(scene, controlMode);
    this.trajectory = new Float32Array(recordQpos ? (maxEpisodeSteps + 1) * scene.nq : 0);
    this.obsTrajectory = new Float32Array(recordQpos ? (maxEpisodeSteps + 1) * writer.spec.dim : 0);
  }

  get steps(): number {
    return this.elapsedSteps;
  }

  /** Seeded reset; writes the first observation at obsOut[obsOffset]. */
  reset(seed: number, obsOut: Float32Array, obsOffset: number): void {
    const { mj, model } = this.scene;
    const rng: Rng = createRng(seed);
    mj.mj_resetDataKeyframe(model, this.data, this.scene.homeKeyId);
    const qpos = this.arrays.qpos;
    const ctrl = this.arrays.ctrl;
    for (let joint = 0; joint < ARM_DOF; joint++) {
      qpos[joint] += RESET_JOINT_NOISE * (2 * rng.uniform() - 1);
      ctrl[joint] = qpos[joint];
    }
    this.task.randomize(this, rng);
    if (this.scene.goalMocapId >= 0) this.arrays.mocapPos.set(this.episode.goal, this.scene.goalMocapId * 3);
    mj.mj_forward(model, this.data);
    this.elapsedSteps = 0;
    this.episodeReturn = 0;
    this.episodeSeed = seed;
    this.everSucceeded = false;
    this.recordFrame();
    this.writer.write(this, obsOut, obsOffset);
    this.recordObs(obsOut, obsOffset);
  }

  /**
   * One control step with an action [A] already clipped to [-1, 1]; writes the
   * next observation (before any auto-reset) at obsOut[obsOffset].
   */
  step(action: ArrayLike<number>, actionOffset: number, obsOut: Float32Array, obsOffset: number): EnvStepResult {
    const { mj, model } = this.scene;
    this.controller.apply(this.arrays, action, actionOffset);
    const physicsStart = this.timePhysics ? performance.now() : 0;
    for (let substep = 0; substep < CONTROL_SUBSTEPS; substep++) mj.mj_step(model, this.data);
    if (this.timePhysics) this.physicsMs += performance.now() - physicsStart;
    this.elapsedSteps++;
    const unstable = this.checkUnstable();
    const evaluation = unstable ? { success: false, denseReward: 0 } : this.task.evaluate(this);
    // Success ends the episode, so a dense reward in [0, 1] would pay a policy to hover short of
    // success for longer. Shifting it by −1 makes every step before success cost 1 − progress and
    // success cost nothing: the return is highest for the fastest success.
    const reward = this.rewardMode === 'dense' ? evaluation.denseReward - 1 : evaluation.success ? 1 : 0;
    this.episodeReturn += reward;
    this.everSucceeded ||= evaluation.success;
    this.recordFrame();
    this.writer.write(this, obsOut, obsOffset);
    this.recordObs(obsOut, obsOffset);
    const terminated = evaluation.success;
    const truncated = !terminated && (unstable || this.elapsedSteps >= this.maxEpisodeSteps);
    return { reward, terminated, truncated, success: evaluation.success, unstable };
  }

  snapshot(): TaskEnvSnapshot {
    const frames = this.recordQpos ? this.elapsedSteps + 1 : 0;
    return {
      physics: capturePhysics(this.scene, this.arrays),
      goal: [...this.episode.goal],
      objectRestZ: this.episode.objectRestZ,
      elapsedSteps: this.elapsedSteps,
      episodeReturn: this.episodeReturn,
      episodeSeed: this.episodeSeed,
      everSucceeded: this.everSucceeded,
      qpos: this.trajectory.slice(0, frames * this.scene.nq),
      obs: this.obsTrajectory.slice(0, frames * this.writer.spec.dim),
    };
  }

  /** Continues the episode a snapshot() of this scene captured. */
  restore(snapshot: TaskEnvSnapshot): void {
    if (!Number.isInteger(snapshot.elapsedSteps) || snapshot.elapsedSteps < 0 || snapshot.elapsedSteps > this.maxEpisodeSteps) {
      throw new EnvError(`saved env state is ${snapshot.elapsedSteps} steps into its episode, outside this env's 0..${this.maxEpisodeSteps}`);
    }
    if (snapshot.goal.length !== 3) throw new EnvError(`saved env state has a goal of ${snapshot.goal.length} values; expected 3`);
    restorePhysics(this.scene, this.arrays, snapshot.physics);
    this.episode.goal.set(snapshot.goal);
    this.episode.objectRestZ = snapshot.objectRestZ;
    this.elapsedSteps = snapshot.elapsedSteps;
    this.episodeReturn = snapshot.episodeReturn;
    this.episodeSeed = snapshot.episodeSeed;
    this.everSucceeded = snapshot.everSucceeded;
    if (this.recordQpos) {
      // A snapshot from an env that did not record leaves the earlier frames zero.
      this.trajectory.fill(0);
      this.obsTrajectory.fill(0);
      this.trajectory.set(snapshot.qpos.subarray(0, Math.min(snapshot.qpos.length, this.trajectory.length)));
      this.obsTrajectory.set(snapshot.obs.subarray(0, Math.min(snapshot.obs.length, this.obsTrajectory.length)));
    }
  }

  /** The finished episode's record (call when a step reports done, before reset). */
  episodeRecord(envIndex: number): EpisodeRecord {
    const nq = this.scene.nq;
    const frames = this.recordQpos ? this.elapsedSteps + 1 : 0;
    return {
      envIndex,
      seed: this.episodeSeed,
      episodeReturn: this.episodeReturn,
      length: this.elapsedSteps,
      success: this.everSucceeded,
      nq,
      goal: [...this.episode.goal],
      qpos: this.trajectory.slice(0, frames * nq),
      obs: this.obsTrajectory.slice(0, frames * this.writer.spec.dim),
    };
  }

  private recordFrame(): void {
    if (!this.recordQpos) return;
    const nq = this.scene.nq;
    const frame = Math.min(this.elapsedSteps, this.maxEpisodeSteps);
    const qpos = this.arrays.qpos;
    for (let q = 0; q < nq; q++) this.trajectory[frame * nq + q] = qpos[q];
  }

  /** Copies the observation just written at obsOut[obsOffset] into the episode's row for this frame. */
  private recordObs(obsOut: Float32Array, obsOffset: number): void {
    if (!this.recordQpos) return;
    const obsDim = this.writer.spec.dim;
    const frame = Math.min(this.elapsedSteps, this.maxEpisodeSteps);
    this.obsTrajectory.set(obsOut.subarray(obsOffset, obsOffset + obsDim), frame * obsDim);
  }

  /**
   * Unstable: a non-finite qpos/qvel, or a MuJoCo bad-state warning
   * (mjWARN_BADQPOS/BADQVEL/BADQACC). On those warnings MuJoCo resets MjData
   * inside mj_step, so the simulation clock falls behind the control clock;
   * reading `time` catches them without copying the warning table every step.
   */
  private checkUnstable(): boolean {
    const qpos = this.arrays.qpos;
    const qvel = this.arrays.qvel;
    let finite = true;
    for (let q = 0; q < qpos.length; q++) if (!Number.isFinite(qpos[q])) finite = false;
    for (let v = 0; v < qvel.length; v++) if (!Number.isFinite(qvel[v])) finite = false;
    const expectedTime = this.elapsedSteps * CONTROL_SUBSTEPS * PHYSICS_TIMESTEP;
    const clockJumped = Math.abs(this.data.time - expectedTime) > 0.5 * PHYSICS_TIMESTEP;
    return !finite || clockJumped;
  }

  dispose(): void {
    this.data.delete();
  }
}
