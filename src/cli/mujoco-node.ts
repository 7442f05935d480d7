/**
 * Loads the single-threaded MuJoCo wasm module in Node. Core code receives the
 * loaded module as a parameter; this is the Node side of that contract.
 */
import loadMujoco, { type MainModule } from '@mujoco/mujoco';

let cached: Promise<MainModule> | undefined;

/** The MuJoCo module, loaded once per process (or worker thread). */
export function loadMujocoNode(): Promise<MainModule> {
  cached ??= loadMujoco();
  return cached;
}
