/**
 * Views that exist only for a policy with a denoising chain (DESIGN.md §3 and §17: the chains, their
 * TCP paths, exploration noise on the chain's steps): a flow or a diffusion policy. For a Gaussian
 * policy (§16) they say in one line why they are empty, rather than ask the trainer for what the
 * policy does not have. A diffusion policy's exploration panel is its own (DPPO's std floor).
 */
import type { RunConfig } from '../../core/config';

export type PolicyKind = RunConfig['policy']['kind'];

/** A Record, so a new family must be named here before it compiles. */
const FAMILY_NAMES: Record<PolicyKind, string> = { flow: 'flow', diffusion: 'diffusion', gaussian: 'Gaussian' };

/** The family as a sentence names it: "Gaussian", "flow". */
export function familyName(kind: PolicyKind): string {
  return FAMILY_NAMES[kind];
}

export type FlowOnlyView = 'chains' | 'chain-paths' | 'noise';

/** Why `view` shows nothing for a `kind` policy; undefined for a flow or diffusion policy, which has it. */
export function flowOnlyText(kind: PolicyKind, view: FlowOnlyView): string | undefined {
  if (kind === 'flow' || kind === 'diffusion') return undefined;
  const policy = `A ${FAMILY_NAMES[kind]} policy`;
  switch (view) {
    case 'chains':
      return `${policy} has no denoising chain: it draws each action from one Gaussian around its mean.`;
    case 'chain-paths':
      return `${policy} has no denoising chains, so there are no sampled chunks to draw as paths.`;
    case 'noise':
      return `${policy} has no exploration-noise schedule: its std is learned (a state-independent log std that starts at policy.init_log_std).`;
  }
}

/** What a policy's deterministic action is, as the action probe and the ONNX export describe it. */
export function deterministicActionText(kind: PolicyKind): string {
  if (kind === 'diffusion') return 'deterministic (mean or DDIM) chain actions';
  return kind === 'flow' ? 'deterministic ODE actions' : `the ${FAMILY_NAMES[kind]} policy's mean action`;
}

/** The ONNX button's tooltip: what the one graph computes. */
export function onnxGraphText(kind: PolicyKind): string {
  if (kind === 'diffusion') return 'One ONNX graph of the deterministic diffusion chain (normalizers, ε net, DDPM mean or DDIM steps from x0 = x_T, unnormalizer), for onnxruntime anywhere';
  return kind === 'flow'
    ? 'One ONNX graph of the deterministic policy (normalizers, encoder, K ODE steps, unnormalizer), for onnxruntime anywhere'
    : `One ONNX graph of the ${FAMILY_NAMES[kind]} policy's mean action (observation normalizer, actor MLP), for onnxruntime anywhere`;
}
