import { describe, expect, it } from 'vitest';
import type { RecipeStatus } from '../../protocol/recipe-api';
import { readyText, recipeStatusText } from './recipe-status-text';

const status = (fields: Partial<RecipeStatus>): RecipeStatus => ({ phase: 'idle', done: 0, total: 0, ...fields });

describe('recipeStatusText', () => {
  it('says how to begin before any stage', () => {
    expect(recipeStatusText(undefined)).toMatch(/^Nothing run yet/);
    expect(recipeStatusText(status({}))).toMatch(/^Nothing run yet/);
  });

  it('names the stage, then the worker’s line without a stage prefix the label repeats', () => {
    expect(recipeStatusText(status({ stage: 'pretrain', phase: 'running', message: 'stage 1: step 12 / 30' }))).toBe('Stage 1 (BC pretraining): step 12 / 30');
    expect(recipeStatusText(status({ stage: 'offline', phase: 'running', message: 'Stage 2: fitting the critic' }))).toBe('Stage 2 (advantage-weighted BC): fitting the critic');
    expect(recipeStatusText(status({ stage: 'record', phase: 'running', message: 'recorded 2 / 4 episodes, 2 succeeded' }))).toBe('Demonstrations: recorded 2 / 4 episodes, 2 succeeded');
    expect(recipeStatusText(status({ stage: 'offline', phase: 'error', message: 'stage 2 failed: no rollouts' }))).toBe('Stage 2 (advantage-weighted BC): stage 2 failed: no rollouts');
    expect(recipeStatusText(status({ stage: 'record', phase: 'stopped' }))).toBe('Demonstrations cancelled');
  });

  it('sums up a finished training stage with its steps and final eval success', () => {
    const done = status({ stage: 'pretrain', phase: 'done', done: 1500, total: 1500, message: 'The BC policy is now the model' });
    expect(recipeStatusText(done, 0.375)).toBe('Stage 1 (BC pretraining): finished 1,500 steps, eval success 38%');
    expect(recipeStatusText(done)).toBe('Stage 1 (BC pretraining): finished 1,500 steps');
    expect(recipeStatusText(status({ stage: 'record', phase: 'done', message: 'recorded 4 episodes, 4 succeeded' }), 1)).toBe('Demonstrations: recorded 4 episodes, 4 succeeded');
  });
});

describe('readyText', () => {
  it('names the policy that became the model once nothing runs or waits', () => {
    expect(readyText(status({ stage: 'pretrain', phase: 'done', policyStage: 'bc' }))).toBe('The BC policy is now the model: press Train to fine-tune it with PPO.');
    expect(readyText(status({ stage: 'offline', phase: 'done', policyStage: 'offline' }))).toMatch(/^The stage-2 .* policy is now the model/);
    // A run exists: the policy waits for Reset rather than claiming Train.
    expect(readyText(status({ stage: 'pretrain', phase: 'done', policyStage: 'bc' }), true)).toBe('The BC policy is the model of the next run: the current run goes on with its own model until Reset.');
    expect(readyText(status({ stage: 'offline', phase: 'error', policyStage: 'bc' }))).toMatch(/^The BC policy/);
  });

  it('says nothing before a policy exists or while a stage runs or is paused', () => {
    expect(readyText(undefined)).toBeUndefined();
    expect(readyText(status({ stage: 'pretrain', phase: 'done' }))).toBeUndefined();
    expect(readyText(status({ stage: 'offline', phase: 'running', policyStage: 'bc' }))).toBeUndefined();
    expect(readyText(status({ stage: 'pretrain', phase: 'paused', policyStage: 'bc' }))).toBeUndefined();
  });
});
