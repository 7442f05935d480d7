/**
 * A diffusion policy's deterministic chain as one ONNX graph (DESIGN.md §6 "ONNX", §17), exactly what evaluation runs
 * (diffusion/diffusion-sampler.ts with `deterministic`): from x_T = x0, DDIM at η = 0 on the leading grid when
 * policy.ddim_steps = S > 0, else DDPM's T-step mean chain (no noise); each step's x̂_0 clamped to ±policy.denoised_clamp;
 * the last element clipped to ±1. The schedule's coefficients are float64 numbers baked in as float32 constants.
 */
import type onnxProto from 'onnx-proto';
import { chainCoefficients } from '../../diffusion/diffusion-step';
import { FINAL_ACTION_CLIP, chainTimesteps } from '../../diffusion/diffusion-settings';
import type { WeightEntry } from '../../policy/flow-policy';
import type { PolicyBundle } from '../../policy/policy-bundle';
import type { OnnxPolicySpec } from './export-spec';
import type { GraphBuilder } from './graph-builder';
import { chainPolicyGraph } from './policy-graph';

/** A diffusion policy's export spec: `denoiseSteps` is T, and `ddimSteps` S > 0 picks the DDIM chain (0: DDPM). */
export interface DiffusionOnnxSpec extends OnnxPolicySpec {
  ddimSteps: number;
  /** Steps at the start of the chain that a fine-tuned policy's frozen base net runs (L − K'); 0 without one. */
  baseSteps: number;
}

/** ±c as a Clip node. */
function clipNodes(g: GraphBuilder, x: string, bound: number, hint: string): string {
  return g.op('Clip', [x, g.floatScalar(-bound), g.floatScalar(bound)], {}, hint);
}

/** One line saying what the chain runs (the graph's doc string). */
export function diffusionChainDescription(spec: DiffusionOnnxSpec): string {
  const chain = spec.ddimSteps > 0
    ? `${spec.ddimSteps} DDIM steps (eta = 0) on t = ${chainTimesteps({ steps: spec.denoiseSteps, ddimSteps: spec.ddimSteps }).join(', ')} of the ${spec.denoiseSteps}-step cosine schedule`
    : `the ${spec.denoiseSteps}-step DDPM mean chain (no noise) of the cosine schedule`;
  const clamp = spec.denoisedClamp > 0 ? `, x0_hat clamped to [-${spec.denoisedClamp}, ${spec.denoisedClamp}]` : '';
  const base = spec.baseSteps > 0 ? `, the frozen base net on its first ${spec.baseSteps} steps and the fine-tuned net on the rest` : '';
  return `Deterministic diffusion policy: ${chain} from x0 = x_T${clamp}${base}, the last element clipped to [-${FINAL_ACTION_CLIP}, ${FINAL_ACTION_CLIP}].`;
}

/**
 * obs [B, nObs, frame] → normalization → encoder → the chain from x0 = x_T [B, H, A] → the first n_action_steps positions
 * → action unnormalization → actions [B, n_action_steps, A] in env units. Each step, as diffusion-step.ts
 * `stepMeanFromEpsilon`: ε from the net at its net time (diffusion-settings.ts `diffusionNetTime`, step size 0);
 * x̂_0 = a·x − b·ε, clamped; DDPM μ = c1·x̂_0 + c2·x, or DDIM x' = c1·x̂_0 + c3·ε' with ε' = e1·x − e2·x̂_0 when
 * clamped (ε otherwise).
 */
export function diffusionGraph(bundle: PolicyBundle, weights: ReadonlyMap<string, WeightEntry>, spec: DiffusionOnnxSpec, baseWeights?: ReadonlyMap<string, WeightEntry>): onnxProto.onnx.IGraphProto {
  const ddim = spec.ddimSteps > 0;
  const coefficients = chainCoefficients({ steps: spec.denoiseSteps, ddimSteps: spec.ddimSteps }, bundle.policy.options, true);
  const clamp = spec.denoisedClamp;
  const described = { name: 'flowtune_diffusion_policy', docString: diffusionChainDescription(spec) };
  return chainPolicyGraph(bundle, weights, spec, described, (g, tuned, xT, base) => {
    const scaled = (value: string, coefficient: number) => g.op('Mul', [value, g.floatScalar(coefficient)]);
    let x = xT;
    for (let index = 0; index < coefficients.t.length; index++) {
      const net = base && index < spec.baseSteps ? base : tuned;
      const epsilon = net.output(x, coefficients.netTime[index], 0, `step_${index}`);
      let x0Hat = g.op('Sub', [scaled(x, coefficients.a[index]), scaled(epsilon, coefficients.b[index])], {}, 'x0_hat');
      if (clamp > 0) x0Hat = clipNodes(g, x0Hat, clamp, 'x0_hat_clamped');
      const rest = ddim
        ? scaled(clamp > 0 ? g.op('Sub', [scaled(x, coefficients.e1[index]), scaled(x0Hat, coefficients.e2[index])], {}, 'epsilon_recomputed') : epsilon, coefficients.c3[index])
        : scaled(x, coefficients.c2[index]);
      x = g.op('Add', [scaled(x0Hat, coefficients.c1[index]), rest], {}, 'x');
    }
    return clipNodes(g, x, FINAL_ACTION_CLIP, 'x_clipped');
  }, spec.baseSteps > 0 ? baseWeights : undefined);
}
