/**
 * Type-only view of the MuJoCo wasm module. Core code never loads it: the
 * caller passes the loaded module in (Node: src/cli/mujoco-node.ts; browser: the env worker).
 */
export type { MainModule as Mujoco, MjModel, MjData, DoubleBuffer, IntBuffer } from '@mujoco/mujoco';
