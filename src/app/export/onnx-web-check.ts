/**
 * Runs an exported ONNX policy in onnxruntime-web (wasm, bundled with the app, one thread, no
 * other origin) on the observation, camera images (an image policy's) and x_0 the trainer used,
 * so the page can show the export acts as the live policy does before the user downloads it.
 */
import * as ort from 'onnxruntime-web/wasm';
import wasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.wasm?url';
import type { OnnxCheckInputs } from '../../protocol/trainer-api';
import { maxAbsDifference } from '../../core/checkpoint/onnx/max-abs-difference';

export interface OnnxWebCheck {
  /** max |onnxruntime-web − live policy| over the executed actions, env units. */
  maxAbsDifference: number;
  /** [B, n_action_steps, A_env] as onnxruntime-web computed it. */
  actions: Float32Array;
}

let configured = false;

function configure(): void {
  if (configured) return;
  ort.env.wasm.wasmPaths = { wasm: wasmUrl };
  // One thread: the check is one small batch, and no worker has to be spawned for it.
  ort.env.wasm.numThreads = 1;
  configured = true;
}

export async function checkOnnxInPage(bytes: Uint8Array, check: OnnxCheckInputs): Promise<OnnxWebCheck> {
  configure();
  const session = await ort.InferenceSession.create(bytes, { executionProviders: ['wasm'] });
  try {
    // Only the inputs the graph declares: a Gaussian policy's has no x0, and onnxruntime refuses an unknown feed.
    const feeds: Record<string, ort.Tensor> = { obs: new ort.Tensor('float32', check.obs, check.obsShape) };
    if (session.inputNames.includes('x0')) feeds.x0 = new ort.Tensor('float32', check.x0, check.x0Shape);
    // A camera policy's graph takes env 0's uint8 images beside the observation.
    if (session.inputNames.includes('images')) {
      if (!check.images || !check.imagesShape) throw new Error('the ONNX model takes camera images, but the export gave none to check it on');
      feeds.images = new ort.Tensor('uint8', check.images, check.imagesShape);
    }
    const outputs = await session.run(feeds);
    const actions = outputs.actions?.data;
    if (!(actions instanceof Float32Array)) throw new Error('the ONNX model gave no float32 output named actions');
    return { maxAbsDifference: maxAbsDifference(actions, check.actions), actions };
  } finally {
    await session.release();
  }
}
