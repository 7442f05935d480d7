/**
 * The trainer worker's own MuJoCo module (DESIGN.md §7: the main thread never loads it), loaded on
 * first use and kept: replays, live frames and the checks of an added task compile scenes with it.
 */
import wasmUrl from '@mujoco/mujoco/mujoco.wasm?url';
import type { Mujoco } from '../../src/core/envs/mujoco-types';

let module: Promise<Mujoco> | undefined;

export function trainerMujoco(): Promise<Mujoco> {
  module ??= import('@mujoco/mujoco').then(({ default: loadMujoco }) =>
    loadMujoco({ locateFile: (path: string) => (path.endsWith('.wasm') ? wasmUrl : path) }) as Promise<Mujoco>);
  return module;
}
