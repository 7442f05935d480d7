import { DITX_BLOCK_MODULATIONS, DITX_MLP_RATIO } from './velocity-ditx';
import { obsFeatureDim, obsFrameSize, obsTokenCount, obsTokenDim, velocityHiddenDim, type FlowPolicyOptions } from './options';
import { reflowEncoderLayout, reflowNoiseLayout, reflowValueLayout } from './reflow-heads';
import { torchMlpShapes, type TorchMlpLayout } from './torch-mlp';
import { unet1dShapes } from './unet1d-shapes';
import { reflowTimeWidths, reflowVelocityLayout } from './velocity-reflow';
import { imageEncoderShapes } from './image-encoder-options';

/** Parameter name → shape, in a stable order. */
export type ParamShapes = Map<string, number[]>;

function addDense(shapes: ParamShapes, prefix: string, inputDim: number, outputDim: number): void {
  shapes.set(`${prefix}.kernel`, [inputDim, outputDim]);
  shapes.set(`${prefix}.bias`, [outputDim]);
}

function addLayerNorm(shapes: ParamShapes, prefix: string, dim: number): void {
  shapes.set(`${prefix}.gamma`, [dim]);
  shapes.set(`${prefix}.beta`, [dim]);
}

/** Adds `${prefix}.layers.i` dense layers and returns the output size. */
function addMlp(shapes: ParamShapes, prefix: string, inputDim: number, hidden: number[]): number {
  let width = inputDim;
  hidden.forEach((size, layerIndex) => {
    addDense(shapes, `${prefix}.layers.${layerIndex}`, width, size);
    width = size;
  });
  return width;
}

/** Input size of the velocity net: flattened x_t, obs features, t embedding and (shortcut) d embedding. */
export function velocityInputDim(options: FlowPolicyOptions): number {
  const embeds = options.shortcut ? 2 : 1;
  return options.horizon * options.actionDim + obsFeatureDim(options) + embeds * options.timeEmbedDim;
}

/**
 * Input size of the noise head: [obs features, emb(t)]; with the UNet1D its learned step embedding (emb(d) included
 * with `shortcut`), the conditioning its FiLM layers read (policy/noise-head.ts).
 */
export function noiseHeadInputDim(options: FlowPolicyOptions): number {
  const embeds = options.velocityNet === 'unet1d' && options.shortcut ? 2 : 1;
  return obsFeatureDim(options) + embeds * options.timeEmbedDim;
}

/** Input size of the value head. */
export function valueInputDim(options: FlowPolicyOptions): number {
  return options.valueOn === 'obs' ? obsFeatureDim(options) : velocityHiddenDim(options);
}

function addMlpVelocity(shapes: ParamShapes, options: FlowPolicyOptions): void {
  const hidden = options.velocityHidden;
  addDense(shapes, 'velocity.input', velocityInputDim(options), hidden[0]);
  for (let blockIndex = 0; blockIndex + 1 < hidden.length; blockIndex++) {
    addDense(shapes, `velocity.blocks.${blockIndex}.dense`, hidden[blockIndex], hidden[blockIndex + 1]);
  }
  addDense(shapes, 'velocity.output', hidden[hidden.length - 1], options.horizon * options.actionDim);
}

/** DiT-X (src/core/policy/velocity-ditx.ts): token embeddings, conditioning MLP, blocks, final AdaLN layer. */
function addDitxVelocity(shapes: ParamShapes, options: FlowPolicyOptions): void {
  const width = options.ditxDim;
  const embeds = options.shortcut ? 2 : 1;
  addDense(shapes, 'velocity.cond.layers.0', embeds * options.timeEmbedDim, width);
  addDense(shapes, 'velocity.cond.layers.1', width, width);
  addDense(shapes, 'velocity.input', options.actionDim, width);
  shapes.set('velocity.pos', [options.horizon, width]);
  addDense(shapes, 'velocity.obs_input', obsTokenDim(options), width);
  shapes.set('velocity.obs_pos', [obsTokenCount(options), width]);
  for (let blockIndex = 0; blockIndex < options.ditxDepth; blockIndex++) {
    const block = `velocity.blocks.${blockIndex}`;
    addDense(shapes, `${block}.modulation`, width, DITX_BLOCK_MODULATIONS * width);
    addDense(shapes, `${block}.self_attn.qkv`, width, 3 * width);
    addDense(shapes, `${block}.self_attn.out`, width, width);
    addDense(shapes, `${block}.cross_attn.q`, width, width);
    addDense(shapes, `${block}.cross_attn.kv`, width, 2 * width);
    addDense(shapes, `${block}.cross_attn.out`, width, width);
    addDense(shapes, `${block}.mlp.layers.0`, width, DITX_MLP_RATIO * width);
    addDense(shapes, `${block}.mlp.output`, DITX_MLP_RATIO * width, width);
  }
  addDense(shapes, 'velocity.final.modulation', width, 2 * width);
  addDense(shapes, 'velocity.output', width, options.actionDim);
}

function addTorchMlp(shapes: ParamShapes, prefix: string, layout: TorchMlpLayout): void {
  for (const [name, shape] of torchMlpShapes(prefix, layout)) shapes.set(name, shape);
}

/** ReinFlow's FlowMLP, cond_mlp, exploration-noise net and CriticObs (policy/velocity-reflow.ts, reflow-heads.ts). */
function reflowShapes(options: FlowPolicyOptions): ParamShapes {
  const shapes: ParamShapes = new Map();
  const encoder = reflowEncoderLayout(options);
  if (encoder) addTorchMlp(shapes, 'encoder', encoder);
  const [timeInput, timeHidden, timeOutput] = reflowTimeWidths(options);
  addDense(shapes, 'velocity.time.0', timeInput, timeHidden);
  addDense(shapes, 'velocity.time.1', timeHidden, timeOutput);
  addTorchMlp(shapes, 'velocity.mlp', reflowVelocityLayout(options, obsFeatureDim(options)));
  if (options.noiseHead) addTorchMlp(shapes, 'noise_head', reflowNoiseLayout(options));
  addTorchMlp(shapes, 'value', reflowValueLayout(options, valueInputDim(options)));
  return shapes;
}

/**
 * Every parameter name and shape of an architecture, without building anything.
 * Used to create the policy and to validate checkpoints before loading.
 * Groups: `encoder.*`, `velocity.*`, `noise_head.*` (actor) and `value.*` (critic).
 */
export function expectedParameterShapes(options: FlowPolicyOptions): ParamShapes {
  if (options.velocityNet === 'reflow_mlp') return reflowShapes(options);
  const shapes: ParamShapes = new Map();
  if (options.obsEncoder === 'state') {
    addMlp(shapes, 'encoder', (options.nObsSteps * obsFrameSize(options)) / obsTokenCount(options), options.encoderHidden);
  } else if (options.obsEncoder === 'image') {
    for (const [name, shape] of imageEncoderShapes(options.image!)) shapes.set(name, shape);
  } else {
    const pointWidth = addMlp(shapes, 'encoder.points', 3, options.encoderHidden);
    addDense(shapes, 'encoder.project', pointWidth, options.pointFeatureDim);
    addLayerNorm(shapes, 'encoder.norm', options.pointFeatureDim);
  }
  if (options.velocityNet === 'ditx') addDitxVelocity(shapes, options);
  else if (options.velocityNet === 'unet1d') for (const [name, shape] of unet1dShapes(options)) shapes.set(name, shape);
  else addMlpVelocity(shapes, options);
  const actionSize = options.horizon * options.actionDim;
  if (options.noiseHead) {
    const width = addMlp(shapes, 'noise_head', noiseHeadInputDim(options), options.noiseHidden);
    addDense(shapes, 'noise_head.output', width, actionSize);
  }
  const valueWidth = addMlp(shapes, 'value', valueInputDim(options), options.valueHidden);
  addDense(shapes, 'value.output', valueWidth, 1);
  return shapes;
}

/** True for names in the critic group (separate learning rate). */
export function isCriticParameter(name: string): boolean {
  return name.startsWith('value.');
}
