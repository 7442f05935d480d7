/**
 * Writes a random UNet1D velocity net (policy/velocity-unet1d.ts), a batch of inputs and its tfjs outputs as JSON,
 * for unet1d_crosscheck.py to rebuild in torch and compare.
 * Usage: npx tsx scripts/torch-crosscheck/export_unet1d.ts OUT.json [shortcut=true|false] [dims=32,64,64] [horizon=8]
 */
import { writeFileSync } from 'node:fs';
import * as tf from '@tensorflow/tfjs';
import { useNodeBackend } from '../../src/cli/node-backend';
import { FlowPolicy } from '../../src/core/policy/flow-policy';
import { obsFeatureDim } from '../../src/core/policy/options';
import { createRng } from '../../src/core/random';

const [out, ...rest] = process.argv.slice(2);
if (!out) {
  console.error('usage: npx tsx scripts/torch-crosscheck/export_unet1d.ts OUT.json [shortcut=true|false] [dims=32,64,64] [horizon=8]');
  process.exit(2);
}
const args = new Map(rest.map((arg) => arg.split('=') as [string, string]));
const dims = (args.get('dims') ?? '32,64,64').split(',').map(Number);
const horizon = Number(args.get('horizon') ?? 8);

await useNodeBackend('wasm');
const policy = new FlowPolicy({
  obsDim: 7, nObsSteps: 2, horizon, actionDim: 3, velocityNet: 'unet1d', unetDims: dims, unetKernel: 5, unetGroups: 8,
  shortcut: args.get('shortcut') !== 'false', encoderHidden: [16],
}, 1);
// Every weight off its init (norm scales near 1), so no zero or unit hides a layer.
const rng = createRng(2);
const weights = await policy.getWeights();
for (const [name, entry] of weights) {
  const noise = rng.fillNormal(new Float32Array(entry.data.length));
  entry.data = name.endsWith('.gamma') ? noise.map((value) => 1 + 0.2 * value) : noise.map((value) => 0.3 * value);
}
policy.setWeights(weights);

const batch = 5;
const featureDim = obsFeatureDim(policy.options);
const x = rng.fillNormal(new Float32Array(batch * horizon * 3));
const features = rng.fillNormal(new Float32Array(batch * featureDim));
const t = Float32Array.from({ length: batch }, () => rng.uniform());
const d = Float32Array.from({ length: batch }, (_, index) => 1 / 2 ** (index % 4));
const { velocity, hidden } = policy.velocity(tf.tensor3d(x, [batch, horizon, 3]), tf.tensor1d(t), tf.tensor1d(d), tf.tensor2d(features, [batch, featureDim]));

const plain = (values: ArrayLike<number>) => Array.from(values);
writeFileSync(out, JSON.stringify({
  options: policy.options,
  weights: Object.fromEntries([...weights].filter(([name]) => name.startsWith('velocity.')).map(([name, entry]) => [name, { shape: entry.shape, data: plain(entry.data) }])),
  inputs: { x: plain(x), t: plain(t), d: plain(d), features: plain(features), batch, featureDim },
  outputs: { velocity: plain(await velocity.data()), hidden: plain(await hidden.data()) },
}));
console.log(`${out}: unet_dims [${dims}], horizon ${horizon}, shortcut ${policy.options.shortcut}, ${weights.size} tensors`);
tf.dispose([velocity, hidden]);
policy.dispose();
