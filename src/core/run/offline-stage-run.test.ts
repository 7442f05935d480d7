import { beforeAll, describe, expect, it } from 'vitest';
import { loadMujocoNode } from '../../cli/mujoco-node';
import { useNodeBackend } from '../../cli/node-backend';
import type { CheckpointFiles } from '../checkpoint/checkpoint-open';
import { encodeFlowtune } from '../checkpoint/flowtune-file';
import { InThreadBatchEnv } from '../envs/in-thread-batch-env';
import type { Mujoco } from '../envs/mujoco-types';
import { ConfigError } from '../errors';
import type { MetricRecord } from '../metrics/metric-keys';
import { reachDemos, reachStageConfig } from './fixtures/stage-demos';
import { runOfflineStageRun } from './offline-stage-run';
import { runPretrainStage, type StageDemos } from './pretrain-stage';
import type { StagePorts } from './stage-ports';

let mj: Mujoco;
let demos: StageDemos;
let start: CheckpointFiles;
let stage1Normalizer: unknown;
beforeAll(async () => {
  await useNodeBackend('wasm');
  mj = await loadMujocoNode();
  demos = reachDemos(mj, 3);
  const stage1 = await runPretrainStage({ config: reachStageConfig(['pretrain.steps=6', 'pretrain.batch_size=8', 'eval_episodes=0']), demos, ports: { openEnv: async (config) => new InThreadBatchEnv(mj, config) } });
  start = { kind: 'flowtune', name: 'reach-bc.flowtune', bytes: encodeFlowtune(stage1.contents) };
  stage1Normalizer = stage1.contents.metadata.normalizer;
}, 60_000);

function recordingPorts() {
  const events: string[] = [];
  const ports: StagePorts<MetricRecord> = {
    openEnv: async (config, purpose) => {
      events.push(`open ${purpose} ${config.numEnvs}`);
      return new InThreadBatchEnv(mj, config);
    },
    onPhase: (line) => events.push(`phase ${line.split(':')[0]}`),
    onProgress: (step, record) => events.push(`progress ${step} ${Number.isFinite(record['losses/weighted_bc'])}`),
    onEval: (step, summary) => events.push(`eval ${step} ${summary.episodes}`),
  };
  return { ports, events };
}

describe('runOfflineStageRun', () => {
  it('continues the stage-1 checkpoint with the offline.* fields: start eval, rollouts, critic, weighted BC, evaluations, an offline checkpoint', async () => {
    const { ports, events } = recordingPorts();
    const base = reachStageConfig();
    const overrides = ['offline.rollouts=2', 'offline.steps=4', 'offline.batch_size=8', 'offline.critic_steps=5', 'offline.eval_every=2', 'eval_episodes=1'];
    const result = await runOfflineStageRun({ start, base, overrides, demos, ports: { ...ports, progressReports: 2 } });
    expect(events).toEqual([
      'open eval 1', 'eval 0 1', 'open train 2', 'phase rollouts', 'phase critic', 'phase weights',
      'progress 2 true', 'open eval 1', 'eval 2 1', 'progress 4 true', 'open eval 1', 'eval 4 1',
    ]);
    expect(result.report).toMatchObject({ demoSamples: demos.demos.rewards.length, rollouts: { episodes: 2 } });
    expect(result.startEval).toMatchObject({ episodes: 1, seed: 1_000_000 });
    const { metadata } = result.contents;
    // The stage-1 checkpoint's 6 steps, then 4 more; its normalizers are kept.
    expect(metadata).toMatchObject({ stage: 'offline', task: 'reach', training: { step: 10 }, eval: result.finalEval });
    expect(metadata.normalizer).toEqual(stage1Normalizer);
    expect(result.config.offline).toMatchObject({ rollouts: 2, steps: 4, eval_every: 2 });
  }, 120_000);

  it("takes the studio's form fields after the checkpoint's config, eval_episodes=0 included, and evaluates nothing then", async () => {
    const { ports, events } = recordingPorts();
    const result = await runOfflineStageRun({
      start, base: reachStageConfig(['eval_episodes=20', 'eval.every=10', 'eval.record_episodes=2']), demos, ports,
      settings: { 'offline.rollouts': 0, 'offline.steps': 2, 'offline.batch_size': 8, 'offline.critic_steps': 3, eval_episodes: 0 },
    });
    expect(events.filter((event) => event.startsWith('eval') || event.startsWith('open'))).toEqual([]);
    expect(result.startEval).toBeUndefined();
    expect(result.contents.metadata.eval).toEqual({});
    expect(result.report.rolloutSamples).toBe(0);
  }, 60_000);

  it('refuses sparse rewards and demos of another env before anything trains', async () => {
    const { ports, events } = recordingPorts();
    const sparse = runOfflineStageRun({ start, base: reachStageConfig(), overrides: ['env.reward=sparse'], demos, ports });
    await expect(sparse).rejects.toThrow(ConfigError);
    await expect(sparse).rejects.toThrow('env.reward=sparse cannot be used: the demos hold dense rewards, so stage 2 needs env.reward=dense');
    const wide = { ...demos, metadata: { ...demos.metadata, obs_dim: 30 } };
    await expect(runOfflineStageRun({ start, base: reachStageConfig(), demos: wide, ports }))
      .rejects.toThrow("demos file 'reach.demos' cannot be used: the demos' observations hold 30 values but the env's hold 29");
    expect(events).toEqual([]);
  }, 60_000);
});
