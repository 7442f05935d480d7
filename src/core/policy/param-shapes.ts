import { obsFeatureDim, type FlowPolicyOptions } from './options';

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

/** Input size of the value head. */
export function valueInputDim(options: FlowPolicyOptions): number {
  return options.valueOn === 'obs' ? obsFeatureDim(options) : options.velocityHidden[options.velocityHidden.length - 1];
}

/**
 * Every parameter name and shape of an architecture, without building anything.
 * Used to create the policy and to validate checkpoints before loading.
 * Groups: `encoder.*`, `velocity.*`, `noise_head.*` (actor) and `value.*` (critic).
 */
export function expectedParameterShapes(options: FlowPolicyOptions): ParamShapes {
  const shapes: ParamShapes = new Map();
  const flatProprio = options.nObsSteps * options.obsDim;
  if (options.obsEncoder === 'state') {
    addMlp(shapes, 'encoder', flatProprio, options.encoderHidden);
  } else {
    const pointWidth = addMlp(shapes, 'encoder.points', 3, options.encoderHidden);
    addDense(shapes, 'encoder.project', pointWidth, options.pointFeatureDim);
    addLayerNorm(shapes, 'encoder.norm', options.pointFeatureDim);
  }
  const hidden = options.velocityHidden;
  addDense(shapes, 'velocity.input', velocityInputDim(options), hidden[0]);
  for (let blockIndex = 0; blockIndex + 1 < hidden.length; blockIndex++) {
    addDense(shapes, `velocity.blocks.${blockIndex}.dense`, hidden[blockIndex], hidden[blockIndex + 1]);
  }
  const actionSize = options.horizon * options.actionDim;
  addDense(shapes, 'velocity.output', hidden[hidden.length - 1], actionSize);
  if (options.noiseHead) {
    const width = addMlp(shapes, 'noise_head', obsFeatureDim(options) + options.timeEmbedDim, options.noiseHidden);
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
