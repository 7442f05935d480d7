"""Writes small ShortCutFlow checkpoints with ReinFlow's own classes, and the actions its sampler returns.

Run by hand (Debian's python3-torch), never in CI:
    git clone https://github.com/ReinFlow/ReinFlow /tmp/reinflow   # commit aed2819 or later
    /usr/bin/python3 scripts/torch-crosscheck/make_reinflow_shortcut.py /tmp/reinflow src/core/checkpoint/peers/fixtures

ReinFlow's modules import einops for layers these nets never build; when einops is not installed, empty
stand-ins let the import succeed (nothing of them is called). Writes, for each embed_combination_type:
  shortcut-<type>.pt             {epoch, model, ema, optimizer, lr_scheduler} as ReinFlow's pretraining agent saves
  shortcut-<type>.expected.json  obs (normalized), z, and ShortCutFlow.sample's actions for K = 4 and 2
and normalization.npz shared by both (hopper's sizes: obs 11, action 3).
"""
import json
import os
import sys

import numpy as np
import torch

from reinflow_modules import use_reinflow


def main(reinflow_dir, out_dir):
    use_reinflow(reinflow_dir)
    from model.flow.mlp_shortcut import ShortCutFlowMLP
    from model.flow.shortcutflow import ShortCutFlow

    obs_dim, action_dim, horizon = 11, 3, 4
    os.makedirs(out_dir, exist_ok=True)
    generator = np.random.default_rng(5)
    obs_min = generator.uniform(-3, -1, obs_dim).astype(np.float32)
    obs_max = (obs_min + generator.uniform(1, 4, obs_dim)).astype(np.float32)
    action_min = -np.ones(action_dim, dtype=np.float32)
    action_max = np.ones(action_dim, dtype=np.float32)
    np.savez(os.path.join(out_dir, 'normalization.npz'), obs_min=obs_min, obs_max=obs_max, action_min=action_min, action_max=action_max)

    layouts = {
        'concate': dict(td_emb_dim=8, mlp_dims=[32, 32, 32], cond_mlp_dims=None, activation_type='Mish', residual_style=True, use_layernorm=True),
        'add': dict(td_emb_dim=8, mlp_dims=[24, 24], cond_mlp_dims=[16, 8], activation_type='SiLU', residual_style=False, use_layernorm=False),
    }
    for combination, layout in layouts.items():
        torch.manual_seed(3)
        network = ShortCutFlowMLP(horizon_steps=horizon, action_dim=action_dim, cond_dim=obs_dim, embed_combination_type=combination, **layout)
        with torch.no_grad():
            for parameter in network.parameters():
                parameter.add_(0.05 * torch.randn_like(parameter))
        model = ShortCutFlow(network=network, device='cpu', horizon_steps=horizon, action_dim=action_dim, act_min=-1, act_max=1,
                             obs_dim=obs_dim, max_denoising_steps=4, seed=None)
        state = model.state_dict()
        torch.save({'epoch': 7, 'model': state, 'ema': state, 'optimizer': {}, 'lr_scheduler': {}}, os.path.join(out_dir, f'shortcut-{combination}.pt'))

        obs = torch.rand(5, 1, obs_dim) * 2 - 1
        runs = []
        for steps in [4, 2]:
            torch.manual_seed(11)
            z = torch.randn((5, horizon, action_dim))
            torch.manual_seed(11)
            actions = model.sample({'state': obs}, inference_steps=steps, clip_intermediate_actions=True).trajectories
            runs.append({'inference_steps': steps, 'actions_normalized': actions.tolist()})
        expected = {
            'source': f"ReinFlow ShortCutFlow.sample (embed_combination_type={combination}), clip_intermediate_actions=True",
            'layout': {key: value for key, value in layout.items()},
            'obs_normalized': obs[:, 0].tolist(),
            'z': z.tolist(),
            'runs': runs,
        }
        with open(os.path.join(out_dir, f'shortcut-{combination}.expected.json'), 'w') as handle:
            json.dump(expected, handle)
        print(f'wrote shortcut-{combination}.pt: {sum(p.numel() for p in network.parameters())} parameters')


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2])
