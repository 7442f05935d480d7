import { describe, expect, it } from 'vitest';
import { DEFAULT_DRAFTS } from '../store/recipe-slice';
import { parseOfflineForm, parsePretrainForm, parseRecordForm } from './recipe-form';

describe('recipe forms', () => {
  it('turn the default drafts back into the config defaults of the stage fields', () => {
    expect(parseRecordForm(DEFAULT_DRAFTS.record)).toEqual({ request: { episodes: 50, noise: 0.3, seed: 0 } });
    expect(parsePretrainForm(DEFAULT_DRAFTS.pretrain))
      .toEqual({ request: { 'pretrain.steps': 3000, 'pretrain.batch_size': 256, 'pretrain.lr': 1e-3, 'pretrain.eval_every': 0, eval_episodes: 20 } });
    expect(parseOfflineForm(DEFAULT_DRAFTS.offline))
      .toEqual({ request: { 'offline.rollouts': 32, 'offline.steps': 1000, 'offline.beta': 1, 'offline.eval_every': 0, eval_episodes: 20 } });
  });

  it('read typed values with spaces, decimals, exponents and digit separators', () => {
    const steps = 1 + Math.floor(Math.random() * 10_000);
    expect(parsePretrainForm({ 'pretrain.steps': ` ${steps} `, 'pretrain.batch_size': '32', 'pretrain.lr': '3e-4', 'pretrain.eval_every': '0', eval_episodes: '0' }))
      .toEqual({ request: { 'pretrain.steps': steps, 'pretrain.batch_size': 32, 'pretrain.lr': 3e-4, 'pretrain.eval_every': 0, eval_episodes: 0 } });
    expect(parseOfflineForm({ 'offline.rollouts': '0', 'offline.steps': '2_000', 'offline.beta': '0.5', 'offline.eval_every': '10', eval_episodes: '1' }))
      .toEqual({ request: { 'offline.rollouts': 0, 'offline.steps': 2000, 'offline.beta': 0.5, 'offline.eval_every': 10, eval_episodes: 1 } });
  });

  it('refuse a stage field outside its config bounds with the config field\'s own sentence naming the key and the allowed values', () => {
    const pretrain = DEFAULT_DRAFTS.pretrain;
    expect(parsePretrainForm({ ...pretrain, 'pretrain.steps': '0' })).toEqual({ problem: "pretrain.steps must be an integer in [1, 10000000] (got '0')" });
    expect(parsePretrainForm({ ...pretrain, 'pretrain.batch_size': '2.5' })).toEqual({ problem: "pretrain.batch_size must be an integer in [1, 65536] (got '2.5')" });
    expect(parsePretrainForm({ ...pretrain, 'pretrain.lr': '0' })).toEqual({ problem: "pretrain.lr must be a number in [1e-7, 1] (got '0')" });
    expect(parsePretrainForm({ ...pretrain, 'pretrain.lr': '' })).toEqual({ problem: expect.stringMatching(/^pretrain\.lr must be a number in \[1e-7, 1\]/) });
    expect(parsePretrainForm({ ...pretrain, 'pretrain.eval_every': '-5' })).toEqual({ problem: "pretrain.eval_every must be an integer in [0, 10000000] (got '-5')" });
    expect(parseOfflineForm({ ...DEFAULT_DRAFTS.offline, 'offline.beta': '-1' })).toEqual({ problem: expect.stringMatching(/^offline\.beta must be a number in \[0\.001, 1000\]/) });
    expect(parseOfflineForm({ ...DEFAULT_DRAFTS.offline, 'offline.rollouts': 'x' })).toEqual({ problem: expect.stringMatching(/^offline\.rollouts must be an integer in \[0, 100000\]/) });
  });

  it('refuse a bad recording field with one sentence naming it', () => {
    expect(parseRecordForm({ episodes: '0', noise: '0.1', seed: '0' })).toEqual({ problem: 'Episodes must be a whole number ≥ 1 (got "0").' });
    expect(parseRecordForm({ episodes: '4', noise: '1.5', seed: '0' })).toEqual({ problem: 'Expert noise must be a number from 0 to 1 (got "1.5").' });
    expect(parseRecordForm({ episodes: '4', noise: '0.1', seed: '99999999999999999999' })).toEqual({ problem: expect.stringMatching(/^Seed must be a whole number/) });
  });

  it('name the first bad field when several are bad', () => {
    expect(parsePretrainForm({ ...DEFAULT_DRAFTS.pretrain, 'pretrain.steps': '0', 'pretrain.batch_size': '0' })).toEqual({ problem: expect.stringMatching(/^pretrain\.steps /) });
  });
});
