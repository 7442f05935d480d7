"""Loads DPPO checkpoints into DPPO's own classes, strictly, for the by-hand cross-checks of the DPPO import and export.

Run by hand (Debian's python3-torch; DPPO's repository checked out), never in CI:
    git clone https://github.com/irom-princeton/dppo /tmp/dppo

    # The critic values that src/core/checkpoint/peers/dppo-import.test.ts expects of finetuned_5.pt:
    /usr/bin/python3 scripts/torch-crosscheck/dppo_crosscheck.py critic /tmp/dppo ../shared/fixtures/peers/dppo-hopper \
        src/core/checkpoint/peers/fixtures/dppo-critic.expected.json

    # A policy exported with `npm run export -- ckpt=FILE format=dppo out=/tmp/exported`, loaded strictly, and its
    # ε and critic set beside those of the DPPO file it came from:
    /usr/bin/python3 scripts/torch-crosscheck/dppo_crosscheck.py load /tmp/dppo /tmp/exported/state_3000.pt \
        --original ../shared/fixtures/peers/dppo-hopper/state_3000.pt

It uses torch.load(weights_only=True) and load_state_dict(strict=True): DiffusionModel + DiffusionMLP for the pretraining
layout {epoch, model, ema} (both state dicts), PPODiffusion (DiffusionMLP as actor and actor_ft, CriticObs) for the
fine-tuning one {itr, model}. Layer sizes come from the tensors; the activations (not in the tensors) are DPPO's Gym
hopper ones unless given. DPPO's modules import einops for layers these nets never build; when it is not installed,
empty stand-ins let the import succeed.
"""
import argparse
import json
import os

import numpy as np
import torch

from reinflow_modules import use_reinflow as use_checkout


def mlp_dims(state, prefix):
    """Hidden widths and style of a DPPO MLP or ResidualMLP from its tensor names."""
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


def build(data, obs_dim, action_dim, activation, critic_activation, steps):
    """DPPO's own model for the file's layout, with the file's tensors loaded strictly; also its sizes."""
    from model.diffusion.mlp_diffusion import DiffusionMLP
    finetuned = 'itr' in data
    state = data['model'] if finetuned else data['ema']
    root = 'actor_ft.' if finetuned else 'network.'
    net = {key[len(root):]: value for key, value in state.items() if key.startswith(root)}
    hidden, residual, layernorm = mlp_dims(net, 'mlp_mean')
    last = f'mlp_mean.layers.{len(hidden) // 2 + 1}.weight' if residual else f'mlp_mean.moduleList.{len(hidden)}.linear_1.weight'
    out = net[last].shape[0]
    time_dim = net['time_embedding.1.weight'].shape[1]
    horizon = out // action_dim
    first = net['mlp_mean.layers.0.weight' if residual else 'mlp_mean.moduleList.0.linear_1.weight'].shape[1]
    cond_dim = first - out - time_dim

    def diffusion_mlp():
        return DiffusionMLP(action_dim=action_dim, horizon_steps=horizon, cond_dim=cond_dim, time_dim=time_dim, mlp_dims=hidden,
                            activation_type=activation, use_layernorm=layernorm, residual_style=residual)

    common = dict(horizon_steps=horizon, obs_dim=obs_dim, action_dim=action_dim, device='cpu', denoising_steps=steps,
                  denoised_clip_value=1.0, final_action_clip_value=1.0, randn_clip_value=10)
    if finetuned:
        from model.common.critic import CriticObs
        from model.diffusion.diffusion_ppo import PPODiffusion
        critic_hidden, critic_residual, critic_layernorm = mlp_dims(state, 'critic.Q1')
        critic = CriticObs(cond_dim=cond_dim, mlp_dims=critic_hidden, activation_type=critic_activation, residual_style=critic_residual,
                           use_layernorm=critic_layernorm)
        model = PPODiffusion(actor=diffusion_mlp(), critic=critic, ft_denoising_steps=min(10, steps), gamma_denoising=0.99,
                             clip_ploss_coef=0.01, clip_ploss_coef_base=0.001, clip_ploss_coef_rate=3, min_sampling_denoising_std=0.1,
                             min_logprob_denoising_std=0.1, **common)
        model.load_state_dict(state, strict=True)
    else:
        from model.diffusion.diffusion import DiffusionModel
        model = DiffusionModel(network=diffusion_mlp(), **common)
        # Both state dicts load strictly; the EMA weights last, as DPPO's fine-tuner (network_path) loads them.
        model.load_state_dict(data['model'], strict=True)
        model.load_state_dict(data['ema'], strict=True)
    model.eval()
    return model, finetuned, {'horizon': horizon, 'cond_dim': cond_dim, 'hidden': hidden, 'time_dim': time_dim}


def load(path, weights_only=True):
    return torch.load(path, map_location='cpu', weights_only=weights_only)


def normalization(folder):
    arrays = np.load(os.path.join(folder, 'normalization.npz'))
    return len(arrays['obs_min']), len(arrays['action_min'])


def critic_expectation(args):
    """V(obs) of finetuned_5.pt's CriticObs for the batch of ppo_loss_expected.json, and its v_loss as a check."""
    use_checkout(args.dppo_dir)
    obs_dim, action_dim = normalization(args.fixture_dir)
    model, _, sizes = build(load(os.path.join(args.fixture_dir, 'finetuned_5.pt')), obs_dim, action_dim, args.activation, args.critic_activation, args.steps)
    batch = json.load(open(os.path.join(args.fixture_dir, 'ppo_loss_expected.json')))
    obs = torch.tensor(batch['obs_normalized'], dtype=torch.float32).view(-1, sizes['cond_dim'] // obs_dim, obs_dim)
    with torch.no_grad():
        values = model.critic({'state': obs}).view(-1)
    v_loss = 0.5 * ((values - torch.tensor(batch['returns'])) ** 2).mean().item()
    result = {
        'source': "DPPO's PPODiffusion (CriticObs, Mish, residual) loaded strictly from finetuned_5.pt (weights_only=True); "
                  'V(obs) for the obs_normalized of ppo_loss_expected.json; made by scripts/torch-crosscheck/dppo_crosscheck.py critic',
        'values': values.tolist(),
    }
    with open(args.out, 'w') as handle:
        json.dump(result, handle, indent=1)
        handle.write('\n')
    print(f"loaded finetuned_5.pt strictly into DPPO's PPODiffusion: {sizes}")
    print(f"v_loss from these values {v_loss:.6f}, DPPO's loss() gave {batch['outputs']['v_loss']:.6f}")
    print(f'wrote {args.out}')


def outputs(model, finetuned, sizes, obs_dim, action_dim):
    """ε of the (fine-tuned) net and of the base net at t = 0, 7 and T − 1 from fixed x and obs, and the critic's values."""
    generator = np.random.default_rng(0)
    batch = 6
    obs = torch.from_numpy(generator.uniform(-0.8, 0.8, (batch, sizes['cond_dim'] // obs_dim, obs_dim)).astype(np.float32))
    x = torch.from_numpy(generator.standard_normal((batch, sizes['horizon'], action_dim)).astype(np.float32))
    nets = {'actor_ft': model.actor_ft, 'actor': model.actor} if finetuned else {'network': model.network}
    result = {}
    with torch.no_grad():
        for name, net in nets.items():
            for t in [0, 7, model.denoising_steps - 1]:
                result[f'{name} eps t={t}'] = net(x, torch.full((batch,), t), cond={'state': obs}).numpy()
        if finetuned:
            result['critic'] = model.critic({'state': obs}).view(-1).numpy()
    return result


def load_exported(args):
    """Loads an exported .pt strictly into DPPO's class for its layout; compares its outputs with the original file's."""
    use_checkout(args.dppo_dir)
    obs_dim, action_dim = normalization(os.path.dirname(args.checkpoint))
    data = load(args.checkpoint)
    model, finetuned, sizes = build(data, obs_dim, action_dim, args.activation, args.critic_activation, args.steps)
    keys = sorted(data['model'].keys())
    print(f"loaded {args.checkpoint} strictly into DPPO's {'PPODiffusion' if finetuned else 'DiffusionModel'} (weights_only=True): "
          f"top keys {sorted(data.keys())}, {len(keys)} state-dict keys, {sizes}")
    if not args.original:
        return
    # DPPO's own pretraining file keeps its optimizer's float settings, which torch 1.13's weights_only unpickler
    # refuses (BINFLOAT); it is the trusted reference here, so it is read in full.
    original_data = load(args.original, weights_only=False)
    original_state = original_data['model'] if finetuned else original_data['ema']
    print('same state-dict keys as the original:', sorted(original_state.keys()) == keys)
    original, _, _ = build(original_data, obs_dim, action_dim, args.activation, args.critic_activation, args.steps)
    ours = outputs(model, finetuned, sizes, obs_dim, action_dim)
    theirs = outputs(original, finetuned, sizes, obs_dim, action_dim)
    for name in ours:
        print(f'{name}: max |Δ| {np.abs(ours[name] - theirs[name]).max():.3g}')


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--activation', default='ReLU')
    parser.add_argument('--critic-activation', default='Mish')
    parser.add_argument('--steps', type=int, default=20)
    commands = parser.add_subparsers(dest='command', required=True)
    critic = commands.add_parser('critic')
    critic.add_argument('dppo_dir')
    critic.add_argument('fixture_dir')
    critic.add_argument('out')
    loaded = commands.add_parser('load')
    loaded.add_argument('dppo_dir')
    loaded.add_argument('checkpoint')
    loaded.add_argument('--original')
    args = parser.parse_args()
    critic_expectation(args) if args.command == 'critic' else load_exported(args)


if __name__ == '__main__':
    main()
