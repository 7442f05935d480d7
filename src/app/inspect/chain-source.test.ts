import { afterEach, describe, expect, it } from 'vitest';
import { cameraImagesText, chainRequest, chainSourceLabel, useChainSource } from './chain-source';

afterEach(() => useChainSource.getState().showLiveEnv());

describe('chain source', () => {
  it('switches between an episode step and the live env', () => {
    expect(useChainSource.getState().source).toEqual({ kind: 'env' });
    useChainSource.getState().showEpisodeStep('train-12-3', 17);
    expect(useChainSource.getState().source).toEqual({ kind: 'episode', id: 'train-12-3', step: 17 });
    useChainSource.getState().showLiveEnv();
    expect(useChainSource.getState().source).toEqual({ kind: 'env' });
  });

  it('asks for the episode step only when the source is an episode', () => {
    expect(chainRequest({ kind: 'env' }, 2, 16, 0)).toEqual({ envIndex: 2, count: 16, seed: 0 });
    expect(chainRequest({ kind: 'episode', id: 'eval-3-40', step: 5 }, 2, 16, 0)).toEqual({ envIndex: 2, count: 16, seed: 0, episode: { id: 'eval-3-40', step: 5 } });
  });

  it('labels where the observation came from', () => {
    expect(chainSourceLabel({ obsSource: 'rollout', envIndex: 0 })).toBe('env 0, live rollout');
    expect(chainSourceLabel({ obsSource: 'reset', envIndex: 3 })).toBe('env 3, seeded reset (no rollout yet)');
    expect(chainSourceLabel({ obsSource: 'episode', envIndex: 1, episode: { id: 'train-12-3', step: 17 } })).toBe('episode train-12-3, step 17');
  });

  it('says which camera images an image policy\'s chains saw, and nothing for other policies', () => {
    expect(cameraImagesText({})).toBeUndefined();
    expect(cameraImagesText({ cameraImages: 'decision' })).toBe('The policy also saw the camera images of this decision, as the env rendered them.');
    expect(cameraImagesText({ cameraImages: 'recorded-pose' })).toMatch(/^The policy also saw this step's camera images, ray-cast again from the recorded pose .*\.$/);
  });
});
