/**
 * One environment: an MjData on a shared SceneModel, stepped `frameSkip` physics steps per action
 * (DESIGN.md §5, §13). The task resets and scores it through the contract; the env applies the
 * control, runs the physics, enforces the time limit and watches for unstable physics. The vector
 * env owns a batch of these.
 */
import { createRng, type Rng } from '../random';
import { EnvError } from '../errors';
import type { MjData } from './mujoco-types';
import type { SceneModel } from './scene-model';
import type { NamedKind, TaskView } from './task-api';
import type { ResolvedControl, TaskDefinition } from './task-definition';
import type { RewardMode } from './task-types';
import type { ObservationWriter } from './observation';
import { DataArrays } from './data-arrays';
import { capturePhysics, restorePhysics } from './physics-state';

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
  /** [nmocap × 3] the mocap bodies' positions after reset (goal markers, fixtures); they are not in qpos. */
  mocapPos: number[];
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
  /** capturePhysics(): integration state (mocap included) and derived fields, float64. */
  physics: Float64Array;
  /** The task's per-episode state (view.state). */
  state: number[];
  elapsedSteps: number;
  episodeReturn: number;
  episodeSeed: number;
  everSucceeded: boolean;
  /** [elapsedSteps + 1, nq] recorded so far; empty when recording is off. */
  qpos: Float32Array;
  /** [elapsedSteps + 1, obsDim] recorded so far; empty when recording is off. */
  obs: Float32Array;
}

/** Scales an action in [-1, 1] to each actuator's ctrlrange (motor torques or position targets). */
function applyScaled(control: ResolvedControl, ctrl: Float64Array, action: ArrayLike<number>, offset: number): void {
  const range = control.ctrlRange!;
  for (let actuator = 0; actuator < control.dim; actuator++) {
    const low = range[2 * actuator];
    const high = range[2 * actuator + 1];
    ctrl[actuator] = low + 0.5 * (action[offset + actuator] + 1) * (high - low);
  }
}

export class TaskEnv implements TaskView {
  readonly data: MjData;
  readonly arrays: DataArrays;
  readonly state: Float64Array;
  unstable = false;
  private readonly timestep: number;
  private elapsedSteps = 0;
  private episodeReturn = 0;
  private episodeSeed = 0;
  private everSucceeded = false;
  private trajectory: Float32Array;
  /** [maxEpisodeSteps + 1, obsDim], preallocated like the qpos trajectory so memory stays bounded. */
  private obsTrajectory: Float32Array;
  private mocapAtReset: number[] = [];
  /** When set, wall time spent inside mj_step is added to physicsMs (for the env bench). */
  timePhysics = false;
  physicsMs = 0;

  constructor(
    readonly scene: SceneModel,
    readonly task: TaskDefinition,
    readonly writer: ObservationWriter,
    readonly control: ResolvedControl,
    readonly rewardMode: RewardMode,
    readonly recordQpos: boolean,
    /** The episode cap in force (the task's limit unless the run config sets one). */
    readonly maxEpisodeSteps: number = task.maxEpisodeSteps,
  ) {
    this.data = scene.createData();
    this.arrays = new DataArrays(this.data);
    this.state = new Float64Array(task.stateSize);
    this.timestep = (scene.model.opt as { timestep: number }).timestep;
    this.trajectory = new Float32Array(recordQpos ? (maxEpisodeSteps + 1) * scene.nq : 0);
    this.obsTrajectory = new Float32Array(recordQpos ? (maxEpisodeSteps + 1) * writer.spec.dim : 0);
  }

  get mj() {
    return this.scene.mj;
  }

  get model() {
    return this.scene.model;
  }

  id(kind: NamedKind, name: string): number {
    return this.scene.id(kind, name);
  }

  qposAddress(joint: string): number {
    return this.scene.qposAddress(joint);
  }

  qvelAddress(joint: string): number {
    return this.scene.qvelAddress(joint);
  }

  get steps(): number {
    return this.elapsedSteps;
  }

  /** Seeded reset from the start pose; writes the first observation at obsOut[obsOffset]. */
  reset(seed: number, obsOut: Float32Array, obsOffset: number): void {
    const { mj, model } = this.scene;
    const rng: Rng = createRng(seed);
    if (this.scene.keyId >= 0) mj.mj_resetDataKeyframe(model, this.data, this.scene.keyId);
    else mj.mj_resetData(model, this.data);
    this.state.fill(0);
    this.unstable = false;
    this.task.reset(this, rng);
    mj.mj_forward(model, this.data);
    this.mocapAtReset = Array.from(this.arrays.mocapPos);
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
    if (this.control.act) this.control.act(this, action, actionOffset);
    else applyScaled(this.control, this.arrays.ctrl, action, actionOffset);
    const physicsStart = this.timePhysics ? performance.now() : 0;
    for (let substep = 0; substep < this.task.frameSkip; substep++) mj.mj_step(model, this.data);
    if (this.timePhysics) this.physicsMs += performance.now() - physicsStart;
    this.elapsedSteps++;
    this.unstable = this.checkUnstable();
    const result = this.task.step(this);
    // Unstable physics gives no trustworthy score; a task that still reports one keeps it if finite.
    const reward = Number.isFinite(result.reward) ? result.reward : 0;
    if (!this.unstable && !Number.isFinite(result.reward)) {
      throw new EnvError(`task '${this.task.name}' returned a non-finite reward (${result.reward}) at step ${this.elapsedSteps}`);
    }
    const success = this.task.hasSuccess && result.success === true;
    this.episodeReturn += reward;
    this.everSucceeded ||= success;
    this.recordFrame();
    this.writer.write(this, obsOut, obsOffset);
    this.recordObs(obsOut, obsOffset);
    const terminated = !this.unstable && result.terminated === true;
    const truncated = !terminated && (this.unstable || this.elapsedSteps >= this.maxEpisodeSteps);
    return { reward, terminated, truncated, success, unstable: this.unstable };
  }

  snapshot(): TaskEnvSnapshot {
    const frames = this.recordQpos ? this.elapsedSteps + 1 : 0;
    return {
      physics: capturePhysics(this.scene, this.arrays),
      state: [...this.state],
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
    if (snapshot.state.length !== this.state.length) {
      throw new EnvError(`saved env state holds ${snapshot.state.length} task state values; task '${this.task.name}' keeps ${this.state.length}`);
    }
    restorePhysics(this.scene, this.arrays, snapshot.physics);
    this.state.set(snapshot.state);
    this.unstable = false;
    this.mocapAtReset = Array.from(this.arrays.mocapPos);
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
      mocapPos: [...this.mocapAtReset],
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
    const expectedTime = this.elapsedSteps * this.task.frameSkip * this.timestep;
    const clockJumped = Math.abs(this.data.time - expectedTime) > 0.5 * this.timestep;
    return !finite || clockJumped;
  }

  dispose(): void {
    this.data.delete();
  }
}
