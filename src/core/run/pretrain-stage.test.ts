import { beforeAll, describe, expect, it } from 'vitest';
import { loadMujocoNode } from '../../cli/mujoco-node';
import { useNodeBackend } from '../../cli/node-backend';
import type { FlowtuneContents } from '../checkpoint/checkpoint-writer';
import { InThreadBatchEnv } from '../envs/in-thread-batch-env';
import type { Mujoco } from '../envs/mujoco-types';
import { DemosError } from '../errors';
import { reachDemos, reachStageConfig } from './fixtures/stage-demos';
import { runPretrainStage, type StageDemos } from './pretrain-stage';
import type { StageEval, StagePorts } from './stage-ports';

let mj: Mujoco;
let demos: StageDemos;
beforeAll(async () => {
  await useNodeBackend('wasm');
  mj = await loadMujocoNode();
  demos = reachDemos(mj, 3);
});

/** Ports that record every hook call in order. */
function recordingPorts(exportAt: readonly number[] = []) {
  const events: string[] = [];
  const evals: [number, StageEval][] = [];
  const exported: FlowtuneContents[] = [];
  const ports: StagePorts<number> = {
    openEnv: async (config) => new InThreadBatchEnv(mj, config),
    clock: () => 0,
    progressReports: 3,
    onPhase: (line) => events.push(`phase ${line}`),
    onProgress: (step, loss, seconds) => events.push(`progress ${step} ${Number.isFinite(loss)} ${seconds}`),
    beforeEval: (step, episodes) => events.push(`eval ${step} ${episodes}`),
    onEval: (step, summary) => evals.push([step, summary]),
    afterStep: async (step, exportNow) => {
      events.push(`step ${step}`);
      if (exportAt.includes(step)) exported.push(await exportNow());
    },
  };
  return { ports, events, evals, exported };
}

const bitsOf = (contents: FlowtuneContents) => new Map([...contents.tensors].map(([name, tensor]) => [name, [...new Uint32Array(Float32Array.from(tensor.data).buffer)]]));

describe('runPretrainStage', () => {
  it('trains with the pretrain.* fields, reports and evaluates where asked, and returns a bc checkpoint holding its last evaluation', async () => {
    const config = reachStageConfig(['pretrain.steps=6', 'pretrain.batch_size=8', 'pretrain.eval_every=3', 'eval_episodes=2']);
    const { ports, events, evals, exported } = recordingPorts([2]);
    const result = await runPretrainStage({ config, demos, ports });
    // progressReports 3 over 6 steps: a loss window every 2 steps; evaluations at 3 and at the end.
    expect(events).toEqual([
      `phase BC on ${result.samples} samples from 3 episodes`,
      'step 1', 'progress 2 true 0', 'step 2', 'eval 3 2', 'step 3', 'progress 4 true 0', 'step 4', 'step 5', 'progress 6 true 0', 'eval 6 2', 'step 6',
    ]);
    expect(evals.map(([step]) => step)).toEqual([3, 6]);
    expect(evals[1][1]).toMatchObject({ episodes: 2, seed: 1_000_000 });
    expect(result.finalEval).toEqual(evals[1][1]);
    const { metadata } = result.contents;
    expect(metadata).toMatchObject({ stage: 'bc', task: 'reach', training: { step: 6 }, eval: result.finalEval });
    expect((metadata.config as { pretrain: { steps: number } }).pretrain.steps).toBe(6);
    // The export while "paused" at step 2 is the policy as it was then.
    expect(exported[0].metadata).toMatchObject({ stage: 'bc', training: { step: 2 }, eval: {} });
  }, 120_000);

  it('trains the same weights whether or not it evaluates and exports along the way', async () => {
    const steps = ['pretrain.steps=5', 'pretrain.batch_size=8', 'pretrain.ema=0.9'];
    const quiet = await runPretrainStage({ config: reachStageConfig([...steps, 'eval_episodes=1']), demos, ports: recordingPorts().ports });
    const busy = await runPretrainStage({ config: reachStageConfig([...steps, 'eval_episodes=1', 'pretrain.eval_every=1']), demos, ports: recordingPorts([1, 2, 3, 4, 5]).ports });
    expect(bitsOf(busy.contents)).toEqual(bitsOf(quiet.contents));
    expect(busy.finalEval).toEqual(quiet.finalEval);
  }, 120_000);

  it('refuses demos that do not fit the env, or that hold no successful episode, naming their source', async () => {
    const config = reachStageConfig(['pretrain.steps=1', 'eval_episodes=0']);
    const { ports } = recordingPorts();
    const lift = { ...demos, metadata: { ...demos.metadata, task: 'lift' as const } };
    await expect(runPretrainStage({ config, demos: lift, ports })).rejects.toThrow("demos file 'reach.demos' cannot be used: the demos are for task 'lift' but the task is 'reach'");
    const failed = { ...demos, demos: { ...demos.demos, success: new Uint8Array(demos.demos.success.length) } };
    const refusal = runPretrainStage({ config, demos: failed, ports });
    await expect(refusal).rejects.toThrow(DemosError);
    await expect(refusal).rejects.toThrow("demos file 'reach.demos' cannot be used: the demos hold no successful episode to learn from");
  }, 60_000);
});
