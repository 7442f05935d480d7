/**
 * The built-in arm tasks written on the task contract (DESIGN.md §5, §13): each task gives its
 * scene, its task-specific observation, randomization, staged reward and success rule, and its
 * scripted expert; this kit adds what every arm task shares. Episodes start at the 'home'
 * keyframe with seeded noise on the arm joints; a control step is 10 physics steps (20 Hz); the
 * dense reward is the staged progress minus 1 (every step short of success costs, success ends
 * the episode), the sparse one 1 on success.
 */
import { defineTask, type ObservationGroup, type TaskPointCloud, type TaskSpec, type TaskStepResult } from '../../core/envs/task-api';
import type { Rng } from '../../core/envs/task-api';
import { ARM_CONTROLS } from './arm-controls';
import { ARM_POINTCLOUD_PROPRIO, ARM_STATE_PROPRIO } from './arm-observation';
import { ARM_RENDER } from './arm-render';
import { ARM_DOF } from './arm-scene';
import { ARM_STATE_SIZE, armView, type ArmView } from './arm-view';
import { CONTROL_SUBSTEPS } from './robot-mjcf';

/** Joint noise at reset, uniform ± this many rad on each arm joint. */
export const RESET_JOINT_NOISE = 0.02;

/** A named observation slice of an arm task (its start comes from the layout). */
export interface ArmSlice {
  name: string;
  dim: number;
  doc: string;
}

/** Result of one control step's evaluation. */
export interface ArmEvaluation {
  success: boolean;
  /** Staged dense reward in [0, 1]. */
  denseReward: number;
}

/** A closed-loop scripted policy in ee_delta_pos; reset() is called at each episode start. */
export interface ArmExpert {
  reset(): void;
  /** Writes an ee_delta_pos action [4] in [-1, 1]. */
  act(view: ArmView, out: Float32Array): void;
}

/** What one arm task defines; armTask turns it into the contract's TaskSpec. */
export interface ArmTaskDefinition {
  name: string;
  doc: string;
  maxEpisodeSteps: number;
  /** Hashes of earlier versions of the task that no policy can tell from this one (TaskSpec.formerHashes). */
  formerHashes?: readonly string[];
  /** One self-contained MJCF string. */
  mjcf(): string;
  /** Task-specific state observation after the shared proprioception. */
  taskStateSlices: readonly ArmSlice[];
  /** Writes the task-specific state features starting at out[offset]. */
  writeTaskState(view: ArmView, out: Float32Array, offset: number): void;
  /** Task-specific proprioception extras beside a point cloud or camera images (the goal, where it has one). */
  pointcloudExtraSlices: readonly ArmSlice[];
  writePointcloudExtras(view: ArmView, out: Float32Array, offset: number): void;
  /** Randomizes the episode; the arm is already at home with seeded joint noise. */
  randomize(view: ArmView, rng: Rng): void;
  evaluate(view: ArmView): ArmEvaluation;
  /** noise: std of Gaussian noise added to each action dim (before clipping to [-1, 1]). */
  createExpert(noise: number, rng: Rng): ArmExpert;
}

/**
 * The geoms a point cloud leaves out (support surfaces and markers), the task objects it favours, and
 * the depth cloud's workspace: the space over the table top (x ∈ [−0.15, 0.95], y ∈ [−0.6, 0.6]) up to
 * 1.5 m, from 5 mm above it so the table's own surface is cropped.
 */
const ARM_POINT_CLOUD: TaskPointCloud = {
  exclude: ['floor', 'table', 'goal_marker'], objects: ['cube_geom', 'base_cube_geom', 'peg_geom'], objectShare: 0.25,
  workspace: { min: [-0.15, -0.6, 0.005], max: [0.95, 0.6, 1.5] },
};

export function armTask(definition: ArmTaskDefinition): TaskSpec {
  const observation: ObservationGroup[] = [
    ARM_STATE_PROPRIO,
    { slices: definition.taskStateSlices, read: (view, out, offset) => definition.writeTaskState(armView(view), out, offset) },
    ARM_POINTCLOUD_PROPRIO,
  ];
  if (definition.pointcloudExtraSlices.length > 0) {
    observation.push({ slices: definition.pointcloudExtraSlices, modes: ['pointcloud', 'rgb', 'rgbd'], read: (view, out, offset) => definition.writePointcloudExtras(armView(view), out, offset) });
  }
  return defineTask({
    name: definition.name,
    doc: definition.doc,
    scene: definition.mjcf,
    controls: ARM_CONTROLS,
    defaultControl: 'ee_delta_pos',
    frameSkip: CONTROL_SUBSTEPS,
    maxEpisodeSteps: definition.maxEpisodeSteps,
    observation,
    stateSize: ARM_STATE_SIZE,
    hasSuccess: true,
    rewardModes: ['dense', 'sparse'],
    keyframe: 'home',
    ...(definition.formerHashes ? { formerHashes: definition.formerHashes } : {}),
    reset(view, rng) {
      const arm = armView(view);
      const { qpos, ctrl } = arm.arrays;
      for (let joint = 0; joint < ARM_DOF; joint++) {
        qpos[joint] += RESET_JOINT_NOISE * (2 * rng.uniform() - 1);
        ctrl[joint] = qpos[joint];
      }
      definition.randomize(arm, rng);
      if (arm.scene.goalMocapId >= 0) arm.arrays.mocapPos.set(arm.episode.goal, arm.scene.goalMocapId * 3);
    },
    step(view): TaskStepResult {
      const evaluation = view.unstable ? { success: false, denseReward: 0 } : definition.evaluate(armView(view));
      // Success ends the episode, so a dense reward in [0, 1] would pay a policy to hover short of
      // success for longer. Shifting it by −1 makes every step before success cost 1 − progress and
      // success cost nothing: the return is highest for the fastest success.
      const reward = view.rewardMode === 'dense' ? evaluation.denseReward - 1 : evaluation.success ? 1 : 0;
      return { reward, terminated: evaluation.success, success: evaluation.success };
    },
    expert: {
      control: 'ee_delta_pos',
      create(noise, rng) {
        const expert = definition.createExpert(noise, rng);
        return { reset: () => expert.reset(), act: (view, out) => expert.act(armView(view), out) };
      },
    },
    render: ARM_RENDER,
    pointCloud: ARM_POINT_CLOUD,
  });
}
