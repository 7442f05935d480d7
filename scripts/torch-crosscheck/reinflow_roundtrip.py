"""Loads a policy exported with `npm run export -- format=reinflow` into ReinFlow's own classes, strictly, and prints
its actions for fixed observations and initial noise, so they can be set beside Flowtune's.

Run by hand (Debian's python3-torch; ReinFlow's repository checked out), never in CI:
    git clone https://github.com/ReinFlow/ReinFlow /tmp/reinflow
    npm run export -- ckpt=RUN/checkpoints/final.flowtune format=reinflow out=/tmp/exported
    /usr/bin/python3 scripts/torch-crosscheck/reinflow_roundtrip.py /tmp/reinflow /tmp/exported/final.pt [--activation ReLU] [--steps 4]
    npx tsx scripts/torch-crosscheck/compare-roundtrip.ts RUN/checkpoints/final.flowtune /tmp/exported/final.reinflow-actions.json

It uses torch.load(weights_only=True) and load_state_dict(strict=True): ReFlow + FlowMLP for the pretraining layout,
PPOFlow (FlowMLP, its exploration-noise net, CriticObs) for the fine-tuning one. Layer sizes come from the tensors; the
activation (not in the tensors) from --activation. ReinFlow's modules import einops for layers these nets never build;
when it is not installed, empty stand-ins let the import succeed. Writes <name>.reinflow-actions.json beside the .pt.
"""
import argparse
import json
import os

import numpy as np
import torch

from reinflow_modules import use_reinflow


def mlp_dims(state, prefix):
    """Hidden widths and style of a ReinFlow MLP or ResidualMLP from its tensor names."""
    if f'{prefix}.layers.0.weight' in state:
        blocks = 0
        while f'{prefix}.layers.{blocks + 1}.l1.weight' in state:
            blocks += 1
        width = state[f'{prefix}.layers.0.weight'].shape[0]
        return [width] * (1 + 2 * blocks), True, f'{prefix}.layers.1.norm1.weight' in state
    dims = []
    layer = 0
    while f'{prefix}.moduleList.{layer}.linear_1.weight' in state:
        dims.append(state[f'{prefix}.moduleList.{layer}.linear_1.weight'].shape[0])
        layer += 1
    return dims[:-1], False, f'{prefix}.moduleList.0.norm_1.weight' in state


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('reinflow_dir')
    parser.add_argument('checkpoint')
    parser.add_argument('--activation', default='ReLU')
    parser.add_argument('--critic-activation', default='Mish')
    parser.add_argument('--noise-activation', default='Tanh')
    parser.add_argument('--steps', type=int, default=4)
    args = parser.parse_args()
    use_reinflow(args.reinflow_dir)
    from model.flow.mlp_flow import FlowMLP
    from model.flow.reflow import ReFlow

    data = torch.load(args.checkpoint, map_location='cpu', weights_only=True)
    normalization = np.load(os.path.join(os.path.dirname(args.checkpoint), 'normalization.npz'))
    obs_min, obs_max = normalization['obs_min'], normalization['obs_max']
    action_min, action_max = normalization['action_min'], normalization['action_max']
    obs_dim, action_dim = len(obs_min), len(action_min)
    finetuned = 'itr' in data
    state = data['model'] if finetuned else data['ema']
    root = 'actor_ft.policy.' if finetuned else 'network.'
    policy_state = {key[len(root):]: value for key, value in state.items() if key.startswith(root)}
    hidden, residual, layernorm = mlp_dims(policy_state, 'mlp_mean')
    out = policy_state[f'mlp_mean.layers.{len(hidden) // 2 + 1}.weight' if residual else f'mlp_mean.moduleList.{len(hidden)}.linear_1.weight'].shape[0]
    time_dim = policy_state['time_embedding.1.weight'].shape[1]
    horizon = out // action_dim
    cond_dim = policy_state['mlp_mean.layers.0.weight' if residual else 'mlp_mean.moduleList.0.linear_1.weight'].shape[1] - out - time_dim

    def flow_mlp():
        return FlowMLP(horizon_steps=horizon, action_dim=action_dim, cond_dim=cond_dim, time_dim=time_dim, mlp_dims=hidden,
                       activation_type=args.activation, use_layernorm=layernorm, residual_style=residual)

    generator = np.random.default_rng(0)
    batch = 6
    cond_steps = cond_dim // obs_dim
    obs_raw = (obs_min + generator.uniform(0.2, 0.8, (batch, cond_steps, obs_dim)) * (obs_max - obs_min)).astype(np.float32)
    obs = torch.from_numpy(2 * ((obs_raw - obs_min) / (obs_max - obs_min + 1e-6) - 0.5)).float()
    z = torch.from_numpy(generator.standard_normal((batch, horizon, action_dim)).astype(np.float32))
    result = {'checkpoint': args.checkpoint, 'layout': 'finetune' if finetuned else 'pretrain', 'inference_steps': args.steps,
              'obs_raw': obs_raw.tolist(), 'z': z.tolist()}
    if finetuned:
        from model.common.critic import CriticObs
        from model.flow.ft_ppo.ppoflow import PPOFlow
        critic_hidden, critic_residual, critic_layernorm = mlp_dims(state, 'critic.Q1')
        noise_hidden, _, _ = mlp_dims(state, 'actor_ft.explore_noise_net.mlp_logvar')
        critic = CriticObs(cond_dim=cond_dim, mlp_dims=critic_hidden, activation_type=args.critic_activation, residual_style=critic_residual, use_layernorm=critic_layernorm)
        model = PPOFlow(device='cpu', policy=flow_mlp(), critic=critic, actor_policy_path=None, act_dim=action_dim, horizon_steps=horizon,
                        act_min=-1, act_max=1, obs_dim=obs_dim, cond_steps=cond_steps, noise_scheduler_type='learn_decay',
                        inference_steps=args.steps, ft_denoising_steps=args.steps, randn_clip_value=3, min_sampling_denoising_std=0.1,
                        min_logprob_denoising_std=0.1, logprob_min=-1.0, logprob_max=1.0, clip_ploss_coef=0.01, clip_ploss_coef_base=0.01,
                        clip_ploss_coef_rate=3, clip_vloss_coef=None, denoised_clip_value=1.0, max_logprob_denoising_std=0.24,
                        time_dim_explore=0, learn_explore_time_embedding=False, use_time_independent_noise=False,
                        noise_hidden_dims=noise_hidden, logprob_debug_sample=False, logprob_debug_recalculate=False,
                        explore_net_activation_type=args.noise_activation)
        model.load_state_dict(state, strict=True)
        model.eval()
        with torch.no_grad():
            actions = model.actor_ft.policy.sample_action({'state': obs}, args.steps, clip_intermediate_actions=True, act_range=[-1, 1], z=z.clone())
            result['values'] = model.critic({'state': obs}).view(-1).tolist()
    else:
        model = ReFlow(network=flow_mlp(), device='cpu', horizon_steps=horizon, action_dim=action_dim, act_min=-1, act_max=1,
                       obs_dim=obs_dim, max_denoising_steps=args.steps, seed=None)
        model.load_state_dict(state, strict=True)
        model.load_state_dict(data['model'], strict=True)
        model.eval()
        with torch.no_grad():
            actions = model.sample({'state': obs}, inference_steps=args.steps, clip_intermediate_actions=True, z=z.clone()).trajectories
    env_actions = (actions.numpy() + 1) / 2 * (action_max - action_min) + action_min
    result['actions'] = env_actions.tolist()
    out_path = os.path.splitext(args.checkpoint)[0] + '.reinflow-actions.json'
    with open(out_path, 'w') as handle:
        json.dump(result, handle)
    print(f"loaded {args.checkpoint} strictly into ReinFlow's {'PPOFlow' if finetuned else 'ReFlow'} (weights_only=True): "
          f"obs {obs_dim} × {cond_steps} steps, action {action_dim}, horizon {horizon}, hidden {hidden}, K = {args.steps}")
    print(f'wrote {out_path}')
    print('first actions:', np.round(env_actions[0], 6).tolist())


if __name__ == '__main__':
    main()
