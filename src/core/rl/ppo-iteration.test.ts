import { describe, expect, it } from 'vitest';
import { defaultConfig, type RunConfig } from '../config';
import { evalSeeds } from './evaluate';
import { trainSeeds } from './ppo-iteration';

describe('trainSeeds', () => {
  it('GRPO groups of group_size envs share a reset seed; different groups do not', () => {
    const config = { ...defaultConfig(), advantages: { ...defaultConfig().advantages, type: 'grpo' as const, group_size: 4 } };
    for (const iteration of [0, 1, 17]) {
      const seeds = trainSeeds(config, 16, iteration);
      for (let envIndex = 0; envIndex < 16; envIndex++) expect(seeds[envIndex]).toBe(seeds[envIndex - (envIndex % 4)]);
      expect(new Set(seeds).size).toBe(4);
    }
  });

  it('without GRPO every env of an iteration gets its own seed', () => {
    const seeds = trainSeeds(defaultConfig(), 64, 5);
    expect(new Set(seeds).size).toBe(64);
    expect(seeds.every(Number.isInteger)).toBe(true);
  });

  it('the eval seeds never collide with the train seeds of the first 1000 iterations', () => {
    for (const seed of [0, 1, 2 ** 31 - 1]) {
      for (const type of ['gae', 'grpo'] as const) {
        const base = defaultConfig();
        const config: RunConfig = { ...base, seed, num_envs: 256, advantages: { ...base.advantages, type } };
        const evaluation = new Set(evalSeeds(config, 100));
        expect(evaluation.size).toBe(100);
        for (let iteration = 0; iteration < 1000; iteration++) {
          const collisions = trainSeeds(config, config.num_envs, iteration).filter((trainSeed) => evaluation.has(trainSeed));
          expect(collisions, `seed ${seed}, ${type}, iteration ${iteration}`).toEqual([]);
        }
      }
    }
  });
});
