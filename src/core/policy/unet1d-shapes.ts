import { obsFeatureDim, type FlowPolicyOptions } from './options';
import { UNET_EMBED_RATIO } from './velocity-unet1d';

/** Taps of the strided down-sampling conv and of the transposed up-sampling conv (Diffusion Policy's 3 and 4). */
export const DOWNSAMPLE_TAPS = 3;
export const UPSAMPLE_TAPS = 4;

/** Width of the conditioning every FiLM layer reads: [emb(t) | emb(d) | observation features]. */
export function unet1dCondDim(options: FlowPolicyOptions): number {
  return (options.shortcut ? 2 : 1) * options.timeEmbedDim + obsFeatureDim(options);
}

/** Every `velocity.*` parameter of the UNet1D (policy/velocity-unet1d.ts), in the order the net uses them. */
export function unet1dShapes(options: FlowPolicyOptions): Array<[string, number[]]> {
  const shapes: Array<[string, number[]]> = [];
  const kernelAndBias = (prefix: string, kernel: number[]) => shapes.push([`${prefix}.kernel`, kernel], [`${prefix}.bias`, [kernel[kernel.length - 1]]]);
  const norm = (prefix: string, width: number) => shapes.push([`${prefix}.gamma`, [width]], [`${prefix}.beta`, [width]]);
  const { unetDims: dims, unetKernel: taps, timeEmbedDim: embed } = options;
  const condDim = unet1dCondDim(options);
  const residual = (prefix: string, input: number, output: number) => {
    kernelAndBias(`${prefix}.block0.conv`, [taps, input, output]);
    norm(`${prefix}.block0.norm`, output);
    kernelAndBias(`${prefix}.film`, [condDim, 2 * output]);
    kernelAndBias(`${prefix}.block1.conv`, [taps, output, output]);
    norm(`${prefix}.block1.norm`, output);
    if (input !== output) kernelAndBias(`${prefix}.residual`, [input, output]);
  };
  for (const source of options.shortcut ? ['time', 'step'] : ['time']) {
    kernelAndBias(`velocity.${source}.0`, [embed, UNET_EMBED_RATIO * embed]);
    kernelAndBias(`velocity.${source}.1`, [UNET_EMBED_RATIO * embed, embed]);
  }
  dims.forEach((width, level) => {
    residual(`velocity.down.${level}.res0`, level === 0 ? options.actionDim : dims[level - 1], width);
    residual(`velocity.down.${level}.res1`, width, width);
    if (level + 1 < dims.length) kernelAndBias(`velocity.down.${level}.downsample`, [DOWNSAMPLE_TAPS, width, width]);
  });
  const midWidth = dims[dims.length - 1];
  residual('velocity.mid.res0', midWidth, midWidth);
  residual('velocity.mid.res1', midWidth, midWidth);
  for (let upIndex = 0; upIndex + 1 < dims.length; upIndex++) {
    const coarse = dims[dims.length - 1 - upIndex];
    const width = dims[dims.length - 2 - upIndex];
    residual(`velocity.up.${upIndex}.res0`, 2 * coarse, width);
    residual(`velocity.up.${upIndex}.res1`, width, width);
    kernelAndBias(`velocity.up.${upIndex}.upsample`, [UPSAMPLE_TAPS, width, width]);
  }
  kernelAndBias('velocity.final.conv', [taps, dims[0], dims[0]]);
  norm('velocity.final.norm', dims[0]);
  kernelAndBias('velocity.output', [dims[0], options.actionDim]);
  return shapes;
}
