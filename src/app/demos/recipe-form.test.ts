import { describe, expect, it } from 'vitest';
import { DEFAULT_DRAFTS } from '../store/recipe-slice';
import { parseOfflineForm, parsePretrainForm, parseRecordForm } from './recipe-form';

describe('recipe forms', () => {
  it('turn the default drafts back into the protocol defaults', () => {
    expect(parseRecordForm(DEFAULT_DRAFTS.record)).toEqual({ request: { episodes: 50, noise: 0.3, seed: 0 } });
    expect(parsePretrainForm(DEFAULT_DRAFTS.pretrain)).toEqual({ request: { steps: 1000, batchSize: 256, learningRate: 1e-3, evalEvery: 250, evalEpisodes: 20 } });
    expect(parseOfflineForm(DEFAULT_DRAFTS.offline)).toEqual({ request: { rollouts: 32, steps: 1000, beta: 1, evalEvery: 250, evalEpisodes: 20 } });
  });

  it('read typed values with spaces, decimals and exponents', () => {
    const steps = 1 + Math.floor(Math.random() * 10_000);
    expect(parsePretrainForm({ steps: ` ${steps} `, batchSize: '32', learningRate: '3e-4', evalEvery: '0', evalEpisodes: '0' }))
      .toEqual({ request: { steps, batchSize: 32, learningRate: 3e-4, evalEvery: 0, evalEpisodes: 0 } });
    expect(parseOfflineForm({ rollouts: '0', steps: '20', beta: '0.5', evalEvery: '10', evalEpisodes: '1' }))
      .toEqual({ request: { rollouts: 0, steps: 20, beta: 0.5, evalEvery: 10, evalEpisodes: 1 } });
  });

  it('refuse non-positive steps, fractions, negatives and empty fields with one sentence naming the field', () => {
    const pretrain = DEFAULT_DRAFTS.pretrain;
    expect(parsePretrainForm({ ...pretrain, steps: '0' })).toEqual({ problem: 'Steps must be a whole number ≥ 1 (got "0").' });
    expect(parsePretrainForm({ ...pretrain, batchSize: '2.5' })).toEqual({ problem: 'Batch size must be a whole number ≥ 1 (got "2.5").' });
    expect(parsePretrainForm({ ...pretrain, learningRate: '0' })).toEqual({ problem: 'Learning rate must be a number > 0, like 1e-3 (got "0").' });
    expect(parsePretrainForm({ ...pretrain, learningRate: '' })).toEqual({ problem: expect.stringMatching(/^Learning rate must be a number > 0/) });
    expect(parsePretrainForm({ ...pretrain, evalEvery: '-5' })).toEqual({ problem: 'Eval every must be a whole number ≥ 0 (got "-5").' });
    expect(parseOfflineForm({ ...DEFAULT_DRAFTS.offline, beta: '-1' })).toEqual({ problem: expect.stringMatching(/^Beta must be a number > 0/) });
    expect(parseOfflineForm({ ...DEFAULT_DRAFTS.offline, rollouts: 'x' })).toEqual({ problem: 'Rollouts must be a whole number ≥ 0 (got "x").' });
    expect(parseRecordForm({ episodes: '0', noise: '0.1', seed: '0' })).toEqual({ problem: 'Episodes must be a whole number ≥ 1 (got "0").' });
    expect(parseRecordForm({ episodes: '4', noise: '1.5', seed: '0' })).toEqual({ problem: 'Expert noise must be a number from 0 to 1 (got "1.5").' });
    expect(parseRecordForm({ episodes: '4', noise: '0.1', seed: '99999999999999999999' })).toEqual({ problem: expect.stringMatching(/^Seed must be a whole number/) });
  });

  it('name the first bad field when several are bad', () => {
    expect(parsePretrainForm({ ...DEFAULT_DRAFTS.pretrain, steps: '0', batchSize: '0' })).toEqual({ problem: expect.stringMatching(/^Steps /) });
  });
});
