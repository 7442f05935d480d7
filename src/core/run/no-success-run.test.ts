import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMujocoNode } from '../../cli/mujoco-node';
import { useNodeBackend } from '../../cli/node-backend';
import type { BatchEnv } from '../envs/batch-env';
import type { Mujoco } from '../envs/mujoco-types';
import { formatProgressLine } from '../metrics/progress-line';
import { evaluateInBatches } from '../rl/evaluate-batches';
import { bundleActor, finalEvalFields, taskHasSuccess } from '../rl/evaluate';
import { NO_SUCCESS_EPISODE_RETURN, NO_SUCCESS_TASK, registerNoSuccessTask } from '../rl/fixtures/no-success-task';
import { freshBundle, openChunkEnv, tinyConfig } from '../rl/fixtures/test-support';
import { decodeResumeState, encodeResumeState } from './resume-codec';
import { Run } from './run';
import { FlowLearner } from '../rl/flow-family';

registerNoSuccessTask();

let mj: Mujoco;
const opened: BatchEnv[] = [];
beforeAll(async () => {
  await useNodeBackend('wasm');
  mj = await loadMujocoNode();
});
afterAll(async () => {
  for (const env of opened) await env.dispose();
});

const frozenClock = () => 0;

function envFor(config: ReturnType<typeof tinyConfig>, numEnvs = config.num_envs): BatchEnv {
  const env = openChunkEnv(mj, config, numEnvs);
  opened.push(env);
  return env;
}

describe('a task without a success rule (DESIGN.md §13)', () => {
  // Episodes of 3 steps at -1 each: every finished episode returns exactly -3, whatever the weights.
  const config = tinyConfig([`task=${NO_SUCCESS_TASK}`, 'iterations=2', 'eval.every=1', 'eval_episodes=2']);

  it('logs no success metrics, only returns, and the progress line shows the eval return', async () => {
    expect(taskHasSuccess(NO_SUCCESS_TASK)).toBe(false);
    expect(taskHasSuccess('reach')).toBe(true);
    const env = envFor(config);
    const evalEnv = envFor(config, config.eval_episodes);
    const bundle = freshBundle(config, env.obsDim, env.actionDim);
    const run = new Run({ learner: new FlowLearner(bundle, config), env, evalEnv, config, clock: frozenClock });
    try {
      const records = [await run.step(), await run.step()];
      for (const record of records) {
        // The task claims success on every step; without hasSuccess nothing of it is logged.
        expect(record['charts/success_rate']).toBeUndefined();
        expect(record['eval/success_rate']).toBeUndefined();
        expect(record['charts/episode_return']).toBe(NO_SUCCESS_EPISODE_RETURN);
        expect(record['eval/episode_return']).toBe(NO_SUCCESS_EPISODE_RETURN);
        expect(record['eval/episode_length']).toBe(3);
      }
      const line = formatProgressLine(records[1], 2);
      expect(line).toMatch(/^iter 2\/2 steps \d+ return -3\.00 eval_return -3\.00 /);
      expect(line).not.toMatch(/success|eval \d/);
      // The run's summary (stored in checkpoints and resume state) has no success key either, and survives a resume.
      const summary = run.evalSummary()!;
      expect(summary).toEqual({ episodes: 2, mean_return: NO_SUCCESS_EPISODE_RETURN, mean_length: 3 });
      expect(decodeResumeState(encodeResumeState(await run.resumeState())).lastEval).toEqual(summary);
      expect(finalEvalFields(config.task, summary)).toEqual({ eval_mean_return: NO_SUCCESS_EPISODE_RETURN });
      expect(finalEvalFields(config.task, undefined)).toEqual({ eval_mean_return: null });
      expect(finalEvalFields('reach', { episodes: 2, success_rate: 0.5, mean_return: 1, mean_length: 3 })).toEqual({ eval_success_rate: 0.5 });
    } finally {
      run.dispose();
      bundle.policy.dispose();
    }
  });

  it("npm run eval's batched evaluation reports the mean return and no success rate", async () => {
    const probe = envFor(config, 1);
    const bundle = freshBundle(config, probe.obsDim, probe.actionDim);
    const batches: [number, number | undefined, number][] = [];
    try {
      const result = await evaluateInBatches(bundleActor(bundle, config), config, {
        episodes: 3, seed: 1_000_000, batch: 2, onBatch: (done, successes, meanReturn) => batches.push([done, successes, meanReturn]),
      }, async (count) => openChunkEnv(mj, config, count));
      expect(result).toEqual({ task: NO_SUCCESS_TASK, episodes: 3, mean_return: NO_SUCCESS_EPISODE_RETURN, mean_length: 3 });
      expect('success_rate' in result).toBe(false);
      expect(batches).toEqual([[2, undefined, NO_SUCCESS_EPISODE_RETURN], [3, undefined, NO_SUCCESS_EPISODE_RETURN]]);
    } finally {
      bundle.policy.dispose();
    }
  });
});
