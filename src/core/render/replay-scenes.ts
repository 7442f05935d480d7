/**
 * Compiled task scenes for replay, one per task, built on first use from the
 * task's MJCF. The owner calls dispose().
 */
import type { Mujoco } from '../envs/mujoco-types';
import type { EpisodeRecord } from '../envs/task-env';
import type { TaskName } from '../envs/task-types';
import { getTask } from '../envs/registry';
import { SceneModel } from '../envs/scene-model';
import { episodePoses, sceneVisual, type EpisodePoses, type SceneVisual } from './scene-visual';

export class ReplayScenes {
  private readonly scenes = new Map<TaskName, SceneModel>();

  constructor(readonly mj: Mujoco) {}

  scene(task: TaskName): SceneModel {
    let scene = this.scenes.get(task);
    if (!scene) {
      scene = new SceneModel(this.mj, getTask(task).mjcf());
      this.scenes.set(task, scene);
    }
    return scene;
  }

  visual(task: TaskName): SceneVisual {
    return sceneVisual(this.scene(task), task);
  }

  /** The task's visual and the record's per-frame poses. */
  replay(task: TaskName, record: EpisodeRecord): { visual: SceneVisual; poses: EpisodePoses } {
    const scene = this.scene(task);
    return { visual: sceneVisual(scene, task), poses: episodePoses(scene, record) };
  }

  dispose(): void {
    for (const scene of this.scenes.values()) scene.dispose();
    this.scenes.clear();
  }
}
