"""Makes ReinFlow's own model classes importable from a checkout of its repository (for the by-hand cross-checks).

ReinFlow's modules import einops for layers the MLP nets never build; when einops is not installed, empty stand-ins
let the import succeed (nothing of them is called).
"""
import sys
import types

import torch


def use_reinflow(reinflow_dir):
    sys.path.insert(0, reinflow_dir)
    try:
        import einops  # noqa: F401
        return
    except ImportError:
        pass
    for name in ['einops', 'einops.layers', 'einops.layers.torch']:
        module = types.ModuleType(name)
        module.__path__ = []
        sys.modules[name] = module
    sys.modules['einops'].rearrange = None
    sys.modules['einops'].repeat = None
    sys.modules['einops.layers.torch'].Rearrange = torch.nn.Identity
