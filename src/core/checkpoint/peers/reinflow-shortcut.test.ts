import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeBackend } from '../../../cli/node-backend';
import { odeActions } from '../../flow/ode-actions';
import { peerPolicyBundle } from './fixtures/peer-bundle';
import { readReinflowCheckpoint } from './reinflow-import';

/**
 * Small ShortCutFlow checkpoints written by ReinFlow's own classes, with the actions its ShortCutFlow.sample returns:
 *   /usr/bin/python3 scripts/torch-crosscheck/make_reinflow_shortcut.py /tmp/reinflow src/core/checkpoint/peers/fixtures
 */
const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');

interface Expected {
  obs_normalized: number[][];
  z: number[][][];
  runs: Array<{ inference_steps: number; actions_normalized: number[][][] }>;
}

beforeAll(async () => {
  await useNodeBackend('wasm');
});

describe("ReinFlow's ShortCutFlow, imported", () => {
  for (const [combination, layout] of [
    ['concate', { residual: true, layerNorm: true, activation: 'Mish' }],
    ['add', { residual: false, layerNorm: false, activation: 'SiLU' }],
  ] as const) {
    it(`${combination}: reads its layout and samples ShortCutFlow.sample's actions for K = 4 and 2 (1e-5)`, async () => {
      const file = (name: string) => ({ name, bytes: new Uint8Array(readFileSync(path.join(FIXTURES, name))) });
      const config = `model:\n  network:\n    activation_type: ${layout.activation}\n    embed_combination_type: ${combination}\n`;
      const imported = readReinflowCheckpoint({ checkpoint: file(`shortcut-${combination}.pt`), normalization: file('normalization.npz'), config: { name: 'config.yaml', text: config } });
      expect(imported.architecture).toMatchObject({ velocityNet: 'reflow_mlp', shortcut: true, timeGrid: 'uniform', timeEmbedDim: 8, reflow: { ...layout, combination } });
      const expected = JSON.parse(readFileSync(path.join(FIXTURES, `shortcut-${combination}.expected.json`), 'utf8')) as Expected;
      const bundle = await peerPolicyBundle(imported);
      try {
        const batch = expected.z.length;
        for (const run of expected.runs) {
          const actions = tf.tidy(() => odeActions(bundle.policy, { state: tf.tensor3d(expected.obs_normalized.flat(), [batch, 1, 11]) }, tf.tensor3d(expected.z.flat(2), [batch, 4, 3]), run.inference_steps, 1));
          const values = await actions.data();
          actions.dispose();
          const want = run.actions_normalized.flat(2);
          expect(values.length).toBe(want.length);
          want.forEach((value, index) => expect(Math.abs(values[index] - value), `K = ${run.inference_steps}, element ${index}`).toBeLessThan(1e-5));
        }
      } finally {
        bundle.policy.dispose();
      }
    });
  }

  it('without a config, concate is told from the widths; add is assumed and said', () => {
    const file = (name: string) => ({ name, bytes: new Uint8Array(readFileSync(path.join(FIXTURES, name))) });
    expect(readReinflowCheckpoint({ checkpoint: file('shortcut-concate.pt'), normalization: file('normalization.npz') }).architecture.reflow?.combination).toBe('concate');
    const add = readReinflowCheckpoint({ checkpoint: file('shortcut-add.pt'), normalization: file('normalization.npz') });
    expect(add.architecture.reflow?.combination).toBe('add');
    expect(add.notes.join('\n')).toContain('add and multiply look the same in the tensors');
  });
});
