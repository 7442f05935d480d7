import { describe, expect, it } from 'vitest';
import { resolveFlowPolicyOptions } from '../../core/policy/options';
import { unet1dMacs, velocityMacs } from './policy-flops';

describe('UNet1D multiply-adds', () => {
  it('counts each kernel once per position it produces at its level, per-sample layers once (hand count)', () => {
    // Widths 4, 8 (H 4 then 2), kernel 3, A 2, E 4 with the step size, 5 features: cond 13.
    const options = resolveFlowPolicyOptions({
      obsDim: 5, nObsSteps: 1, horizon: 4, actionDim: 2, velocityNet: 'unet1d', unetDims: [4, 8], unetKernel: 3, unetGroups: 2, encoderHidden: [5], timeEmbedDim: 4,
    });
    // t and d MLPs: 2·(4·16 + 16·4) = 256 (once)
    // down.0 at 4 positions: res0 = 3·2·4·4 + 13·8 + 3·4·4·4 + 2·4·4 = 96 + 104 + 192 + 32 = 424; res1 = 192 + 104 + 192 = 488;
    //   downsample to 2 positions: 3·4·4·2 = 96
    // down.1 at 2: res0 = 3·4·8·2 + 13·16 + 3·8·8·2 + 4·8·2 = 192 + 208 + 384 + 64 = 848; res1 = 384 + 208 + 384 = 976
    // mid at 2: 2·976 = 1952
    // up.0 at 2: res0 = 3·16·4·2 + 104 + 3·4·4·2 + 16·4·2 = 384 + 104 + 96 + 128 = 712; res1 = 96 + 104 + 96 = 296;
    //   transposed conv, 4 taps per input position: 4·4·4·2 = 128
    // final conv at 4: 3·4·4·4 = 192; output 4·2·4 = 32.  Total 6400.
    expect(unet1dMacs(options)).toBe(6400);
    expect(velocityMacs(options)).toBe(6400);
  });
});
