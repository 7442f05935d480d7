import type { FlowPolicyOptions } from '../../policy/options';
import { obsFeatureDim } from '../../policy/options';
import { reflowEncoderLayout, reflowNoiseLayout, reflowValueLayout } from '../../policy/reflow-heads';
import { reflowVelocityLayout } from '../../policy/velocity-reflow';
import { linearNames, peerMlpNames, type PeerName } from './peer-mlp-names';

/**
 * ReinFlow's state-dict names of a `reflow_mlp` policy (FlowMLP, or ShortCutFlowMLP with `shortcut`) (DESIGN.md §18), one table for reading and for writing.
 * FlowMLP under `root` (`network.` in ReFlow, `actor_ft.policy.` and `actor_old.` in PPOFlow): `time_embedding.1|3`,
 * `cond_mlp`, `mlp_mean`. DPPO's DiffusionMLP has the same names (`network.` in DiffusionModel; `actor.`, `actor_ft.` in PPODiffusion).
 */
export function flowMlpNames(root: string, options: FlowPolicyOptions): PeerName[] {
  const peer = peerModuleNames(options.shortcut);
  const names = [...linearNames(`${root}${peer.time[0]}`, 'velocity.time.0'), ...linearNames(`${root}${peer.time[1]}`, 'velocity.time.1')];
  const encoder = reflowEncoderLayout(options);
  if (encoder) names.push(...peerMlpNames(`${root}${peer.cond}`, 'encoder', encoder));
  names.push(...peerMlpNames(`${root}${peer.head}`, 'velocity.mlp', reflowVelocityLayout(options, obsFeatureDim(options))));
  return names;
}

/**
 * Module names inside the velocity net: FlowMLP's `time_embedding` (Sequential: sinusoid, Linear 1, Mish, Linear 3),
 * `cond_mlp`, `mlp_mean`; ShortCutFlowMLP's `t_emb` (Linear 0, Mish, Linear 2), `cond_emb`, `vel_head`.
 */
export function peerModuleNames(shortcut: boolean): { time: [string, string]; cond: string; head: string } {
  return shortcut
    ? { time: ['t_emb.0', 't_emb.2'], cond: 'cond_emb', head: 'vel_head' }
    : { time: ['time_embedding.1', 'time_embedding.3'], cond: 'cond_mlp', head: 'mlp_mean' };
}

/** PPOFlow's exploration-noise net (`actor_ft.explore_noise_net.mlp_logvar`) and critic (`critic.Q1`). */
export function ppoFlowHeadNames(options: FlowPolicyOptions): PeerName[] {
  return [...peerMlpNames('actor_ft.explore_noise_net.mlp_logvar', 'noise_head', reflowNoiseLayout(options)), ...criticObsNames(options)];
}

/** The peers' CriticObs (`critic.Q1`, PPOFlow's and PPODiffusion's) as our value head. */
export function criticObsNames(options: FlowPolicyOptions): PeerName[] {
  return peerMlpNames('critic.Q1', 'value', reflowValueLayout(options, obsFeatureDim(options)));
}

/** The scalars PPOFlow keeps beside the noise net: log σ² bounds (our noise.std_min and std_max). */
export const NOISE_LOGVAR_BOUNDS = { min: 'actor_ft.explore_noise_net.logvar_min', max: 'actor_ft.explore_noise_net.logvar_max' } as const;
