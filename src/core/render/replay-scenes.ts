/**
 * Compiled task scenes for replay, one per loaded task (a new version of a task gets its own),
 * built on first use from the task's scene. The owner calls dispose().
 */
import type { Mujoco } from '../envs/mujoco-types';
import type { EpisodeRecord } from '../envs/task-env';
import type { TaskDefinition } from '../envs/task-definition';
import type { TaskName } from '../envs/task-types';
import { getTask } from '../envs/task-registry';
import { SceneModel } from '../envs/scene-model';
import { episodePoses, sceneVisual, type EpisodePoses, type SceneVisual } from './scene-visual';

export class ReplayScenes {
  private readonly scenes = new Map<TaskDefinition, SceneModel>();

  constructor(readonly mj: Mujoco) {}

  scene(task: TaskName): SceneModel {
    const definition = getTask(task);
    let scene = this.scenes.get(definition);
    if (!scene) {
      scene = new SceneModel(this.mj, definition.scene, definition.keyframe, definition.origin);
      this.scenes.set(definition, scene);
    }
    return scene;
  }

  visual(task: TaskName): SceneVisual {
    return sceneVisual(this.scene(task), getTask(task));
  }

  /** The task's visual and the record's per-frame poses. */
  replay(task: TaskName, record: EpisodeRecord): { visual: SceneVisual; poses: EpisodePoses } {
    const scene = this.scene(task);
    const definition = getTask(task);
    return { visual: sceneVisual(scene, definition), poses: episodePoses(scene, definition, record) };
  }

  dispose(): void {
    for (const scene of this.scenes.values()) scene.dispose();
    this.scenes.clear();
  }
}
