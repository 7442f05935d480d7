import { beforeAll, describe, expect, it } from 'vitest';
import { loadMujocoNode } from '../../cli/mujoco-node';
import { useNodeBackend } from '../../cli/node-backend';
import type { FlowtuneContents } from '../checkpoint/checkpoint-writer';
import { decodeFlowtune, encodeFlowtune } from '../checkpoint/flowtune-file';
import { InThreadBatchEnv } from '../envs/in-thread-batch-env';
import type { Mujoco } from '../envs/mujoco-types';
import { CheckpointError, ConfigError } from '../errors';
import { reachDemos, reachStageConfig } from './fixtures/stage-demos';
import { runPretrainStage, type StageDemos } from './pretrain-stage';
import type { StagePorts } from './stage-ports';

let mj: Mujoco;
let demos: StageDemos;
beforeAll(async () => {
  await useNodeBackend('wasm');
  mj = await loadMujocoNode();
  demos = reachDemos(mj, 3);
});

function ports(progress: string[] = []): StagePorts<number> {
  return {
    openEnv: async (config) => new InThreadBatchEnv(mj, config),
    progressReports: 3,
    onProgress: (step, loss) => progress.push(`${step} ${loss}`),
  };
}

const bitsOf = (contents: FlowtuneContents) => new Map([...contents.tensors].map(([name, tensor]) => [name, [...new Uint32Array(Float32Array.from(tensor.data).buffer)]]));

/** The stage's saved states, as the bytes a host writes, by step. */
function savedStates() {
  const states = new Map<number, Uint8Array>();
  return { states, saveResume: async (step: number, contents: FlowtuneContents) => { states.set(step, encodeFlowtune(contents)); } };
}

// Each family's BC: the flow policy with its shortcut target (and so its step-size input), a UNet1D, and DPPO's ε net.
const FAMILIES: [string, string[]][] = [
  ['flow, MLP, shortcut target', []],
  ['flow, UNet1D', ['policy.velocity_net=unet1d', 'policy.horizon=8', 'policy.n_action_steps=4', 'policy.unet_dims=8,16', 'policy.unet_groups=4']],
  ['diffusion (ε)', ['policy.kind=diffusion', 'policy.denoise_steps=5']],
];

describe('a stopped pretrain continues exactly', () => {
  it.each(FAMILIES)('%s: stopped after step 4 and continued, it ends with the same weights, bit for bit, and the same loss reports', async (_, family) => {
    const config = reachStageConfig([...family, 'pretrain.steps=6', 'pretrain.batch_size=8', 'pretrain.save_every=2', 'eval_episodes=0']);
    const whole: string[] = [];
    const saved = savedStates();
    const uninterrupted = await runPretrainStage({ config, demos, ports: ports(whole), ...saved });
    expect([...saved.states.keys()]).toEqual([2, 4]);
    const after4: string[] = [];
    const resumed = await runPretrainStage({ config, demos, ports: ports(after4), resumeFrom: { name: "'bc.flowtune.resume'", bytes: saved.states.get(4)! } });
    expect(bitsOf(resumed.contents)).toEqual(bitsOf(uninterrupted.contents));
    expect(resumed.contents.metadata.training.step).toBe(6);
    // progressReports 3 over 6 steps: a window every 2 steps; the continued BC reports the windows after step 4.
    expect(after4).toEqual(whole.slice(2));
  }, 120_000);

  it('stores the raw weights, the optimizer moments, the weight averages and the streams, and leaves its metadata a bc checkpoint', async () => {
    const config = reachStageConfig(['pretrain.steps=3', 'pretrain.batch_size=8', 'pretrain.save_every=1', 'eval_episodes=0']);
    const saved = savedStates();
    await runPretrainStage({ config, demos, ports: ports(), ...saved });
    // Not after the last step: the checkpoint itself is then written.
    expect([...saved.states.keys()]).toEqual([1, 2]);
    const decoded = decodeFlowtune(saved.states.get(2)!, { expectedShapes: null });
    expect(decoded.metadata).toMatchObject({ stage: 'bc', training: { step: 2 }, resume: { kind: 'pretrain', format_version: 1, step: 2, loss_count: expect.any(Number) } });
    const slots = [...decoded.optimizer!.tensors.keys()];
    expect(slots.filter((name) => name.startsWith('ema.'))).toHaveLength(decoded.tensors.size);
    expect(slots.filter((name) => name.startsWith('bc.') && name.endsWith('.m')).length).toBeGreaterThan(0);
    expect(decoded.metadata.resume).toMatchObject({ adam: { iterations: 2 } });
  }, 120_000);

  it('refuses other settings, other samples, a checkpoint that is no resume state, and a damaged one, each in one sentence', async () => {
    const config = reachStageConfig(['pretrain.steps=4', 'pretrain.batch_size=8', 'pretrain.save_every=2', 'eval_episodes=0']);
    const saved = savedStates();
    const finished = await runPretrainStage({ config, demos, ports: ports(), ...saved });
    const bytes = saved.states.get(2)!;
    const from = (state: Uint8Array) => ({ name: "'bc.flowtune.resume'", bytes: state });
    const resumeWith = (overrides: string[], state = bytes, stageDemos = demos) =>
      runPretrainStage({ config: reachStageConfig(['pretrain.batch_size=8', 'pretrain.save_every=2', 'eval_episodes=0', ...overrides]), demos: stageDemos, ports: ports(), resumeFrom: from(state) });

    await expect(resumeWith(['pretrain.steps=4', 'pretrain.lr=3e-4'])).rejects.toThrow(new ConfigError('pretrain.lr', "pretrain.lr is 0.0003 here but 0.001 in 'bc.flowtune.resume'; resume with the stopped BC's settings"));
    await expect(resumeWith(['pretrain.steps=4', 'seed=9'])).rejects.toThrow("seed is 9 here but 0 in 'bc.flowtune.resume'");
    await expect(resumeWith(['pretrain.steps=4'], bytes, reachDemos(mj, 2))).rejects.toThrow("the BC samples differ from those 'bc.flowtune.resume' was trained on");
    await expect(resumeWith(['pretrain.steps=2'])).rejects.toThrow('steps is 2, but the stopped BC already took 2');
    await expect(resumeWith(['pretrain.steps=4'], encodeFlowtune(finished.contents))).rejects.toThrow(new CheckpointError("'bc.flowtune.resume' is not the saved state of a stopped npm run pretrain"));
    // A state whose Adam moments lost a parameter.
    const decoded = decodeFlowtune(bytes, { expectedShapes: null });
    const [firstMoment] = [...decoded.optimizer!.tensors.keys()].filter((name) => name.startsWith('bc.') && name.endsWith('.m'));
    decoded.optimizer!.tensors.delete(firstMoment);
    await expect(resumeWith(['pretrain.steps=4'], encodeFlowtune(decoded))).rejects.toThrow(/^'bc\.flowtune\.resume' has no Adam moment 'm' for '[\w.]+'$/);
    // Longer, with other evaluation and save settings, and keys of PPO's that stage 1 never reads: the same steps, continued.
    await expect(resumeWith(['pretrain.steps=5', 'pretrain.save_every=0', 'pretrain.eval_every=3', 'eval.every=10', 'ppo.clip_low=0.1'])).resolves.toMatchObject({ contents: { metadata: { training: { step: 5 } } } });
  }, 120_000);
});
