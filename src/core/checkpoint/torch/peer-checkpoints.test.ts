import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isPickleDict, stateDictTensors, type PickleDict, type PickleValue } from './pickle-values';
import type { ForeignTensor } from './tensor-dtypes';
import { readTorchCheckpoint } from './torch-pt-reader';

const here = path.dirname(fileURLToPath(import.meta.url));
/** Checkpoints written by ReinFlow's and DPPO's own code, beside the project (never copied into it). */
const PEERS = path.resolve(here, '../../../../../shared/fixtures/peers');

function load(file: string): PickleDict {
  const value = readTorchCheckpoint(readFileSync(path.join(PEERS, file)), { label: file });
  if (!isPickleDict(value)) throw new Error(`${file}: expected a dict at the top`);
  return value;
}

function stateDict(checkpoint: PickleDict, key: string): Map<string, ForeignTensor> {
  const value: PickleValue | undefined = checkpoint.get(key);
  if (!isPickleDict(value)) throw new Error(`expected a state dict under '${key}'`);
  return stateDictTensors(value);
}

function tensor(tensors: Map<string, ForeignTensor>, name: string): ForeignTensor {
  const found = tensors.get(name);
  if (!found) throw new Error(`no tensor '${name}'`);
  return found;
}

/**
 * Figures printed by torch itself for the same files:
 *   /usr/bin/python3 scripts/torch-crosscheck/dump_pt.py ../shared/fixtures/peers/reinflow-hopper/state_40.pt \
 *     ../shared/fixtures/peers/reinflow-hopper/finetuned_120.pt ../shared/fixtures/peers/dppo-hopper/state_3000.pt
 * (Debian's python3-torch 1.13). Sums are over the float32 values in float64; first/last are exact float32 values.
 */
interface Pinned { shape: number[]; sum: number; absSum: number; first: number[]; last: number }

function expectPinned(actual: ForeignTensor, pinned: Pinned) {
  expect(actual.dtype).toBe('float32');
  expect(actual.shape).toEqual(pinned.shape);
  const values = [...actual.data].map(Number);
  expect(values.every(Number.isFinite)).toBe(true);
  expect(values.reduce((total, value) => total + value, 0)).toBeCloseTo(pinned.sum, 7);
  expect(values.reduce((total, value) => total + Math.abs(value), 0)).toBeCloseTo(pinned.absSum, 7);
  expect(values.slice(0, pinned.first.length)).toEqual(pinned.first);
  expect(values[values.length - 1]).toBe(pinned.last);
}

/** ReinFlow's ReFlow + FlowMLP on hopper: 512×3 residual MLP, time embedding 16, obs 11, horizon 4 × action 3. */
const REFLOW_SHAPES: Record<string, number[]> = {
  'network.time_embedding.1.weight': [32, 16],
  'network.time_embedding.1.bias': [32],
  'network.time_embedding.3.weight': [16, 32],
  'network.time_embedding.3.bias': [16],
  'network.mlp_mean.layers.0.weight': [512, 39],
  'network.mlp_mean.layers.0.bias': [512],
  'network.mlp_mean.layers.1.l1.weight': [512, 512],
  'network.mlp_mean.layers.1.l1.bias': [512],
  'network.mlp_mean.layers.1.l2.weight': [512, 512],
  'network.mlp_mean.layers.1.l2.bias': [512],
  'network.mlp_mean.layers.2.weight': [12, 512],
  'network.mlp_mean.layers.2.bias': [12],
};

function shapesOf(tensors: Map<string, ForeignTensor>): Record<string, number[]> {
  return Object.fromEntries([...tensors].map(([name, value]) => [name, [...value.shape]]));
}

describe.skipIf(!existsSync(PEERS))('peer checkpoints written by torch.save', () => {
  it("reads ReinFlow's pretraining checkpoint state_40.pt: {epoch, model, ema, optimizer, lr_scheduler}", () => {
    const checkpoint = load('reinflow-hopper/state_40.pt');
    expect([...checkpoint.keys()]).toEqual(['epoch', 'model', 'ema', 'optimizer', 'lr_scheduler']);
    expect(checkpoint.get('epoch')).toBe(40);
    const model = stateDict(checkpoint, 'model');
    const ema = stateDict(checkpoint, 'ema');
    expect(shapesOf(model)).toEqual(REFLOW_SHAPES);
    expect(shapesOf(ema)).toEqual(REFLOW_SHAPES);
    expectPinned(tensor(model, 'network.time_embedding.1.weight'), {
      shape: [32, 16], sum: 1.6299655348993838, absSum: 65.51962435385212,
      first: [0.06446395814418793, 0.05120013654232025, 0.18492861092090607], last: 0.07240582257509232,
    });
    expectPinned(tensor(model, 'network.mlp_mean.layers.1.l1.weight'), {
      shape: [512, 512], sum: -71.40166840952588, absSum: 5859.24009417084,
      first: [-0.027613850310444832, -0.0022949762642383575, -0.035401858389377594], last: 0.02905314415693283,
    });
    expectPinned(tensor(ema, 'network.time_embedding.1.weight'), {
      shape: [32, 16], sum: 1.678972816793248, absSum: 65.49533682432957,
      first: [0.0645255297422409, 0.05444713309407234, 0.181758314371109], last: 0.07013125717639923,
    });
    expectPinned(tensor(ema, 'network.mlp_mean.layers.1.l1.weight'), {
      shape: [512, 512], sum: -69.51578358239203, absSum: 5872.193549996002,
      first: [-0.028829721733927727, 0.0008379681967198849, -0.03907709941267967], last: 0.02645578607916832,
    });
    // The optimizer's entries are plain values too (Adam's step is a scalar tensor in torch 1.13).
    const optimizer = checkpoint.get('optimizer') as PickleDict;
    const group = (optimizer.get('param_groups') as PickleValue[])[0] as PickleDict;
    expect(group.get('lr')).toBe(0.001);
    expect(group.get('betas')).toEqual([0.9, 0.999]);
    const adam = (optimizer.get('state') as PickleDict).get(0) as PickleDict;
    expect([...(adam.get('step') as ForeignTensor).data]).toEqual([3]);
    expect((checkpoint.get('lr_scheduler') as PickleDict).get('last_epoch')).toBe(3);
  });

  it("reads ReinFlow's fine-tuning checkpoint finetuned_120.pt: {itr, cnt_train_steps, model, policy}", () => {
    const checkpoint = load('reinflow-hopper/finetuned_120.pt');
    expect([...checkpoint.keys()]).toEqual(['itr', 'cnt_train_steps', 'model', 'policy']);
    expect(checkpoint.get('itr')).toBe(120);
    expect(checkpoint.get('cnt_train_steps')).toBe(9600000);
    const model = stateDict(checkpoint, 'model');
    expect(model.size).toBe(40);
    const prefixes = new Set([...model.keys()].map((name) => name.split('.').slice(0, name.startsWith('actor_ft') ? 2 : 1).join('.')));
    expect([...prefixes]).toEqual(['actor_old', 'actor_ft.policy', 'actor_ft.explore_noise_net', 'critic']);
    expect(shapesOf(stateDict(checkpoint, 'policy'))).toEqual(REFLOW_SHAPES);
    expectPinned(tensor(model, 'actor_ft.explore_noise_net.logvar_min'), {
      shape: [], sum: -4.601253509521484, absSum: 4.601253509521484, first: [-4.601253509521484], last: -4.601253509521484,
    });
    expectPinned(tensor(model, 'actor_ft.explore_noise_net.mlp_logvar.moduleList.0.linear_1.weight'), {
      shape: [64, 27], sum: 5.784593840595335, absSum: 166.38725973665714,
      first: [-0.024055704474449158, -0.1224367618560791, 0.15489539504051208], last: -0.05644778907299042,
    });
    expectPinned(tensor(model, 'critic.Q1.layers.0.weight'), {
      shape: [256, 11], sum: 6.35811725667736, absSum: 426.70141211095324,
      first: [0.06535330414772034, -0.19275866448879242, 0.1700233817100525], last: 0.07152615487575531,
    });
    expectPinned(tensor(model, 'actor_old.mlp_mean.layers.2.bias'), {
      shape: [12], sum: 0.1494308551773429, absSum: 0.2220219550654292,
      first: [0.011788761243224144, 0.04274196922779083, 0.01248170156031847], last: 0.0021591740660369396,
    });
    expectPinned(tensor(stateDict(checkpoint, 'policy'), 'network.time_embedding.1.weight'), {
      shape: [32, 16], sum: 1.6653172769583762, absSum: 65.47348782327026,
      first: [0.0628383681178093, 0.05340319499373436, 0.18127942085266113], last: 0.06995861232280731,
    });
  });

  it("reads DPPO's pretraining checkpoint state_3000.pt: {epoch, model, ema, optimizer}", () => {
    const checkpoint = load('dppo-hopper/state_3000.pt');
    expect([...checkpoint.keys()]).toEqual(['epoch', 'model', 'ema', 'optimizer']);
    expect(checkpoint.get('epoch')).toBe(3000);
    const model = stateDict(checkpoint, 'model');
    expect(model.size).toBe(12);
    expect(shapesOf(stateDict(checkpoint, 'ema'))).toEqual(shapesOf(model));
    expectPinned(tensor(model, 'network.time_embedding.1.weight'), {
      shape: [32, 16], sum: 6.288280154694803, absSum: 79.39894765464123,
      first: [-0.07778888195753098, -0.4194149672985077, -0.009709116071462631], last: 0.0928012952208519,
    });
    expectPinned(tensor(model, 'network.mlp_mean.layers.1.l1.weight'), {
      shape: [512, 512], sum: -664.7264881781803, absSum: 6668.12127708947,
      first: [-0.038128774613142014, 0.013392300345003605, -0.015887564048171043], last: 0.018444299697875977,
    });
    expectPinned(tensor(stateDict(checkpoint, 'ema'), 'network.mlp_mean.layers.1.l1.weight'), {
      shape: [512, 512], sum: -664.521509649705, absSum: 6669.095853971139,
      first: [-0.038182925432920456, 0.01377747394144535, -0.015768742188811302], last: 0.018520206212997437,
    });
  });

  it('refuses each fixture cut short, in one sentence', () => {
    const bytes = readFileSync(path.join(PEERS, 'reinflow-hopper/state_40.pt'));
    expect(() => readTorchCheckpoint(bytes.subarray(0, bytes.length >> 1), { label: 'state_40.pt' })).toThrow(
      /^state_40\.pt: is not a complete zip archive \(truncated or corrupt: .*\)\.$/,
    );
  });
});
