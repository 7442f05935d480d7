import * as tf from '@tensorflow/tfjs';
import { useNodeBackend } from '../src/cli/node-backend';
import { FlowPolicy } from '../src/core/policy/flow-policy';
import { createRng } from '../src/core/random';

await useNodeBackend('wasm');
const B = Number(process.env.B ?? 256);
const enc = (process.env.ENC ?? '64,128').split(',').map(Number);
const net = (process.env.NET ?? 'ditx') as 'ditx' | 'mlp';
const policy = new FlowPolicy({ obsEncoder: 'pointcloud', numPoints: 128, obsDim: 15, nObsSteps: 2, horizon: 8, actionDim: 4, velocityNet: net, ditxDim: 64, ditxDepth: 2, ditxHeads: 4, encoderHidden: enc, velocityHidden: [128, 128, 128] }, 0);
const rng = createRng(0);
const obs = tf.tensor2d(rng.fillNormal(new Float32Array(B * 2 * (128 * 3 + 15))), [B, 2 * (128 * 3 + 15)]);
const x = tf.tensor3d(rng.fillNormal(new Float32Array(B * 32)), [B, 8, 4]);
const t = tf.fill([B], 0.5) as tf.Tensor1D;
const vars = [...policy.namedVariables().values()].filter((v) => !v.name.startsWith('value'));
async function time(label: string, fn: () => tf.Scalar) {
  for (let i = 0; i < 2; i++) { const { value, grads } = tf.variableGrads(fn, vars.filter(v=>true)); await value.data(); tf.dispose([value, ...Object.values(grads)]); }
  const started = performance.now();
  for (let i = 0; i < 5; i++) { const { value, grads } = tf.variableGrads(fn, vars); await value.data(); tf.dispose([value, ...Object.values(grads)]); }
  console.log(label, ((performance.now() - started) / 5).toFixed(1), 'ms');
}
const feats = policy.encode({ state: obs });
const fixed = tf.keep(tf.clone(feats));
await time('encoder fwd+bwd', () => tf.sum(policy.encode({ state: obs })) as tf.Scalar);
await time('velocity fwd+bwd (fixed feats)', () => tf.sum(policy.velocity(x, t, t, fixed).velocity) as tf.Scalar);
const profile = await tf.profile(() => { const { value, grads } = tf.variableGrads(() => tf.sum(policy.velocity(x, t, t, fixed).velocity) as tf.Scalar, vars.filter(v => v.name.startsWith('velocity'))); return value; });
const byKernel = new Map<string, number>();
for (const k of profile.kernels) byKernel.set(k.name, (byKernel.get(k.name) ?? 0) + (k.kernelTimeMs as number));
console.log([...byKernel].sort((a, b) => b[1] - a[1]).slice(0, 15).map(([n, ms]) => `${n} ${ms.toFixed(1)}`).join('\n'));
const p2 = await tf.profile(() => { const { value, grads } = tf.variableGrads(() => tf.sum(policy.encode({ state: obs })) as tf.Scalar, vars.filter(v => v.name.startsWith('encoder'))); return value; });
const bk2 = new Map<string, number>();
for (const k of p2.kernels) bk2.set(k.name, (bk2.get(k.name) ?? 0) + (k.kernelTimeMs as number));
console.log('--- encoder'); console.log([...bk2].sort((a, b) => b[1] - a[1]).slice(0, 10).map(([n, ms]) => `${n} ${ms.toFixed(1)}`).join('\n'));
