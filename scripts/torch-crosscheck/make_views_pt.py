#!/usr/bin/env python3
"""Write src/core/checkpoint/torch/fixtures/views-dtypes.pt: a small torch.save file whose
tensors are views (transposed, sliced, sharing one storage), a Parameter, and every
dtype the reader converts, so the unit test checks our reader against torch's own bytes.

Run by hand with Debian's PyTorch (apt-get install python3-torch):
  /usr/bin/python3 scripts/torch-crosscheck/make_views_pt.py
It prints each tensor's values as torch reads them; the test pins those.
"""
import collections
import json
import pathlib

import torch

OUT = pathlib.Path(__file__).resolve().parents[2] / 'src/core/checkpoint/torch/fixtures/views-dtypes.pt'

base = torch.arange(12, dtype=torch.float32).reshape(3, 4)
state = collections.OrderedDict(
    transposed=base.t(),
    sliced=base[1:, ::2],
    float64=torch.tensor([0.1, -2.5], dtype=torch.float64),
    half=torch.tensor([1.5, -2], dtype=torch.half),
    bfloat16=torch.tensor([3.14, 1], dtype=torch.bfloat16),
    int64=torch.tensor([2**53 + 1, -7]),
    int32=torch.tensor([5, 6], dtype=torch.int32),
    bool=torch.tensor([True, False, True]),
    parameter=torch.nn.Parameter(torch.ones(2)),
)
torch.save(state, OUT)
print(json.dumps({name: tensor.float().tolist() if tensor.dtype == torch.bfloat16 else tensor.tolist() for name, tensor in state.items()}))
