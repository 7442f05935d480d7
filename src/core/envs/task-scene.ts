/**
 * A task's scene as MuJoCo compiles it: the MJCF text and the files beside it (meshes, height
 * fields, textures, included MJCF), given to MuJoCo through a virtual file system so the same
 * scene compiles in Node and in a browser worker.
 */
import { TaskError } from '../errors';
import type { MjModel, Mujoco } from './mujoco-types';

/** A task folder's files by path relative to the folder ('meshes/link.stl'). */
export type SceneFiles = ReadonlyMap<string, Uint8Array>;

export interface SceneSource {
  xml: string;
  /** Files MuJoCo may open while compiling, by the path the MJCF names them with. */
  assets: ReadonlyMap<string, Uint8Array>;
  /** The scene's file in the task folder, for messages; absent for MJCF given as text. */
  file?: string;
}

/** Files in a task folder that are code, never handed to MuJoCo. */
const MODULE_FILE = /\.(m?js|ts|mts)$/i;
/** The most a scene's files may hold, all together. */
export const MAX_SCENE_BYTES = 256 * 1024 * 1024;

/** 'a/./b/../c.xml' → 'a/c.xml'; undefined when the path leaves the folder. */
export function folderPath(path: string): string | undefined {
  const parts: string[] = [];
  for (const part of path.replace(/\\/g, '/').split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else {
      parts.push(part);
    }
  }
  return parts.join('/');
}

/** The MJCF of `scene` (text, a path into `files`, or a function) with the folder's other files as assets. */
export function readSceneSource(scene: string | (() => string), files: SceneFiles | undefined, origin: string): SceneSource {
  let xml: unknown;
  let sceneFile: string | undefined;
  if (typeof scene === 'function') {
    try {
      xml = scene();
    } catch (error) {
      throw new TaskError(`${origin}: scene() threw: ${(error as Error).message}`);
    }
  } else if (/<mujoco[\s>]/.test(scene)) {
    xml = scene;
  } else {
    sceneFile = folderPath(scene);
    const bytes = sceneFile === undefined ? undefined : files?.get(sceneFile);
    if (!bytes) throw new TaskError(`${origin}: scene file '${scene}' is not in the task's folder`);
    xml = new TextDecoder().decode(bytes);
  }
  if (typeof xml !== 'string' || !/<mujoco[\s>]/.test(xml)) throw new TaskError(`${origin}: the scene is not MJCF text (no <mujoco> element)`);
  const assets = new Map<string, Uint8Array>();
  let total = xml.length;
  for (const [path, bytes] of files ?? []) {
    if (MODULE_FILE.test(path) || path === sceneFile) continue;
    total += bytes.length;
    if (total > MAX_SCENE_BYTES) throw new TaskError(`${origin}: the task's files hold more than ${MAX_SCENE_BYTES / 1024 / 1024} MiB`);
    assets.set(path, bytes);
  }
  return { xml, assets, ...(sceneFile ? { file: sceneFile } : {}) };
}

/** A compiled scene; one owner calls dispose(). */
export interface CompiledScene {
  model: MjModel;
  /** Id of a keyframe by name, or -1. */
  keyId(name: string): number;
  dispose(): void;
}

/** Compiles the scene; a scene MuJoCo refuses (broken XML, a missing mesh) is one TaskError with MuJoCo's reason. */
export function compileScene(mj: Mujoco, scene: SceneSource, origin: string): CompiledScene {
  const model = compileModel(mj, scene, origin);
  return {
    model,
    keyId: (name) => mj.mj_name2id(model, mj.mjtObj.mjOBJ_KEY.value, name),
    dispose: () => model.delete(),
  };
}

/** The MjModel of a scene (the caller owns it). */
export function compileModel(mj: Mujoco, scene: SceneSource, origin: string): MjModel {
  const vfs = new mj.MjVFS();
  try {
    for (const [path, bytes] of scene.assets) vfs.addBuffer(path, bytes);
    return mj.MjModel.from_xml_string(scene.xml, vfs);
  } catch (error) {
    const reason = error instanceof Error ? error.message : typeof error === 'number' ? mujocoErrorText(mj, error) : String(error);
    throw new TaskError(`${origin}: ${scene.file ? `its scene ${scene.file}` : 'the scene'} does not compile: ${reason.replace(/\s+/g, ' ').trim()}`);
  } finally {
    vfs.delete();
  }
}

/** Embind reports a C++ exception as a pointer; this reads its message where the build offers it. */
function mujocoErrorText(mj: Mujoco, pointer: number): string {
  const reader = (mj as unknown as { getExceptionMessage?: (p: number) => [string, string] }).getExceptionMessage;
  return reader ? reader(pointer).join(': ') : `MuJoCo error ${pointer}`;
}
