import { describe, expect, it } from 'vitest';
import { loadMujocoNode } from '../mujoco-node';
import { halton } from './halton';

describe('halton', () => {
  it("gives MuJoCo's mju_Halton bit for bit", async () => {
    const mj = await loadMujocoNode();
    for (const base of [2, 3, 5, 7, 11]) for (const index of [0, 1, 2, 9, 10, 123, 4097, 99_999]) expect(halton(index, base)).toBe(mj.mju_Halton(index, base));
  });
});
