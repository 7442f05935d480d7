/** Test helper: a VectorEnv that is always disposed after `body`, even when it throws. */
import type { Mujoco } from './mujoco-types';
import { VectorEnv, type VectorEnvConfig } from './vector-env';

export function withVectorEnv<T>(mj: Mujoco, config: VectorEnvConfig, body: (env: VectorEnv) => T): T {
  const env = new VectorEnv(mj, config);
  try {
    return body(env);
  } finally {
    env.dispose();
  }
}
