#!/usr/bin/env python3
"""Print a few tensors of torch checkpoints as JSON, to pin our own .pt reader's numbers.

Run by hand with Debian's PyTorch (apt-get install python3-torch):
  /usr/bin/python3 scripts/torch-crosscheck/dump_pt.py ../shared/fixtures/peers/reinflow-hopper/state_40.pt ...
The fixtures are trusted files made by the peers' own code: torch 1.13's weights_only
unpickler refuses their optimizer's floats (BINFLOAT), so this loads them in full.
"""
import json
import sys

import torch

# Tensors whose figures the unit test pins, per top-level entry.
PICKS = {
    'model': ['network.time_embedding.1.weight', 'network.mlp_mean.layers.1.l1.weight',
              'actor_ft.explore_noise_net.logvar_min', 'actor_ft.explore_noise_net.mlp_logvar.moduleList.0.linear_1.weight',
              'critic.Q1.layers.0.weight', 'actor_old.mlp_mean.layers.2.bias'],
    'ema': ['network.time_embedding.1.weight', 'network.mlp_mean.layers.1.l1.weight'],
    'policy': ['network.time_embedding.1.weight'],
}


def describe(tensor):
    flat = tensor.detach().reshape(-1).to(torch.float64)
    return {
        'dtype': str(tensor.dtype).replace('torch.', ''),
        'shape': list(tensor.shape),
        'sum': flat.sum().item(),
        'abs_sum': flat.abs().sum().item(),
        'first': [float(v) for v in flat[:3]],
        'last': float(flat[-1]),
    }


def dump(path):
    checkpoint = torch.load(path, map_location='cpu', weights_only=False)
    out = {'keys': list(checkpoint.keys()), 'scalars': {}, 'tensors': {}, 'counts': {}}
    for key, value in checkpoint.items():
        if isinstance(value, (int, float)):
            out['scalars'][key] = value
        if isinstance(value, dict) and key in PICKS:
            out['counts'][key] = len(value)
            for name in PICKS[key]:
                if name in value:
                    out['tensors'][f'{key}/{name}'] = describe(value[name])
    return out


if __name__ == '__main__':
    print(json.dumps({path: dump(path) for path in sys.argv[1:]}, indent=1))
