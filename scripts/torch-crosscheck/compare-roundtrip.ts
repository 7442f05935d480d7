/**
 * Sets Flowtune's actions beside those ReinFlow's own classes gave for the same exported policy
 * (scripts/torch-crosscheck/reinflow_roundtrip.py writes them): the same observations, the same initial noise z as x0.
 *   npx tsx scripts/torch-crosscheck/compare-roundtrip.ts CHECKPOINT ACTIONS.json [key=value ...]
 * CHECKPOINT is the file that was exported (.flowtune, or a ReinFlow .pt with its normalization.npz beside it); the
 * overrides change how ours samples (policy.denoised_clamp=1 for a policy trained without ReinFlow's clamp).
 */
import { readFileSync } from 'node:fs';
import * as ort from 'onnxruntime-node';
import { loadCheckpointFile } from '../../src/cli/run-setup';
import { useNodeBackend } from '../../src/cli/node-backend';
import { ONNX_POLICY_IO } from '../../src/core/checkpoint/onnx/policy-graph';
import { applyOverrides, defaultConfig } from '../../src/core/config';
import { loadPolicy } from '../../src/core/run/families';
import { metadataWithSampler } from '../../src/core/run/export-settings';
import { openCheckpoint } from '../../src/core/run/open-checkpoint';
import { registerBuiltInTasks } from '../../src/tasks';

interface ReinflowActions {
  inference_steps: number;
  /** [batch, n_obs_steps, obs_dim], oldest first. */
  obs_raw: number[][][];
  z: number[][][];
  actions: number[][][];
  values?: number[];
}

async function main(): Promise<void> {
  const [checkpointPath, actionsPath] = process.argv.slice(2);
  if (!checkpointPath || !actionsPath) throw new Error('usage: npx tsx scripts/torch-crosscheck/compare-roundtrip.ts CHECKPOINT ACTIONS.json');
  registerBuiltInTasks();
  await useNodeBackend('wasm');
  const reference = JSON.parse(readFileSync(actionsPath, 'utf8')) as ReinflowActions;
  const file = loadCheckpointFile(checkpointPath);
  const { checkpoint, config } = openCheckpoint(file, applyOverrides(defaultConfig(), [`task=${file.task}`]), [`policy.denoise_steps=${reference.inference_steps}`, ...process.argv.slice(4)]);
  const policy = loadPolicy(checkpoint, config);
  const { bytes } = await policy.exportOnnx(metadataWithSampler(checkpoint.metadata, config));
  policy.dispose();
  const session = await ort.InferenceSession.create(bytes);
  const batch = reference.obs_raw.length;
  const [horizon, actionDim] = [reference.z[0].length, reference.z[0][0].length];
  const outputs = await session.run({
    [ONNX_POLICY_IO.obs]: new ort.Tensor('float32', Float32Array.from(reference.obs_raw.flat(2)), [batch, reference.obs_raw[0].length, reference.obs_raw[0][0].length]),
    [ONNX_POLICY_IO.x0]: new ort.Tensor('float32', Float32Array.from(reference.z.flat(2)), [batch, horizon, actionDim]),
  });
  const ours = outputs[ONNX_POLICY_IO.actions].data as Float32Array;
  // The graph gives the executed steps; ReinFlow's sampler the whole chunk.
  const executed = ours.length / (batch * actionDim);
  const theirs = reference.actions.flatMap((chunk) => chunk.slice(0, executed).flat());
  let worst = 0;
  theirs.forEach((value, index) => { worst = Math.max(worst, Math.abs(value - ours[index])); });
  console.log(`${checkpointPath}: ${batch} observations, K = ${reference.inference_steps}, ${executed} of ${horizon} steps compared: max |Flowtune − ReinFlow| = ${worst.toExponential(2)} (env units)`);
  console.log('first actions (Flowtune):', Array.from(ours.slice(0, executed * actionDim), (value) => Number(value.toFixed(6))));
  await session.release();
}

main().catch((error: unknown) => {
  console.error(`error: ${(error as Error).message}`);
  process.exit(1);
});
