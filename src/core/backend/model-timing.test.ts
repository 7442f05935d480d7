import * as tf from '@tensorflow/tfjs';
import { describe, expect, it } from 'vitest';
import { tinyConfig } from '../rl/fixtures/test-support';
import { timedSizes, timeModel } from './model-timing';

describe('model timing shared by the CLI and the studio', () => {
  it('names the sizes a choice timed at', () => {
    const config = tinyConfig(['num_envs=8', 'ppo.minibatch_size=8']);
    expect(timedSizes(config)).toBe('8 envs, minibatch 8');
  });

  it('times a fresh model on the backend in use and frees it', async () => {
    await tf.setBackend('cpu');
    const config = tinyConfig();
    const before = tf.memory().numTensors;
    const speed = await timeModel(config, undefined, Infinity, { decisions: { warmup: 0, repeats: 1, budgetMs: 50 }, gradSteps: { warmup: 0, repeats: 1, budgetMs: 50 } });
    expect(speed.decisionSeconds).toBeGreaterThan(0);
    expect(speed.gradStepSeconds).toBeGreaterThan(0);
    expect(tf.memory().numTensors).toBe(before);
  });
});
