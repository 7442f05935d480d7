"""Rebuilds Flowtune's UNet1D velocity net (src/core/policy/velocity-unet1d.ts) from torch's own layers and compares it
with the tfjs outputs that export_unet1d.ts wrote.

Run by hand (Debian's python3-torch), never in CI:
    npx tsx scripts/torch-crosscheck/export_unet1d.ts /tmp/unet1d.json
    /usr/bin/python3 scripts/torch-crosscheck/unet1d_crosscheck.py /tmp/unet1d.json

The torch side is written from the architecture's description, with torch.nn.Conv1d (padding k//2), Conv1d(stride 2,
padding 1), ConvTranspose1d(4, stride 2, padding 1), GroupNorm and Mish, in torch's channels-first layout; only the
weights come from the file, transposed from Flowtune's layouts: conv kernels [taps, in, out] -> Conv1d [out, in, taps],
ConvTranspose1d [in, out, taps]; dense kernels [in, out] -> Linear [out, in]. The torch net runs in float32 (as tfjs
does) and in float64; it exits 1 when max |delta| against the float32 run is above 1e-5.
"""
import json
import math
import sys

import numpy as np
import torch
from torch import nn

TOLERANCE = 1e-5


def sinusoid(value, dim):
    """[sin(1000 v f_j) | cos(1000 v f_j)], f_j = exp(-ln(10000) j / half) (src/core/policy/time-embedding.ts), in the
    order tfjs rounds it: (v * 1000) * f_j in value's dtype (a float32 angle near 1000 rad is only good to 6e-5)."""
    half = dim // 2
    freqs = torch.exp(-math.log(10000) * torch.arange(half, dtype=torch.float64) / half).to(value.dtype)
    angles = (value * 1000)[:, None] * freqs[None, :]
    return torch.cat([angles.sin(), angles.cos()], dim=1)


class ConvBlock(nn.Module):
    """Conv1d (same padding) -> GroupNorm -> Mish."""

    def __init__(self, cin, cout, kernel, groups):
        super().__init__()
        self.conv = nn.Conv1d(cin, cout, kernel, padding=kernel // 2)
        self.norm = nn.GroupNorm(groups, cout)
        self.act = nn.Mish()

    def forward(self, x):
        return self.act(self.norm(self.conv(x)))


class ResidualBlock(nn.Module):
    """block1(FiLM(block0(x), cond)) + skip(x); FiLM's [scale | bias] = Linear(Mish(cond)), scale used as it is."""

    def __init__(self, cin, cout, cond_dim, kernel, groups):
        super().__init__()
        self.block0 = ConvBlock(cin, cout, kernel, groups)
        self.film = nn.Linear(cond_dim, 2 * cout)
        self.block1 = ConvBlock(cout, cout, kernel, groups)
        self.residual = nn.Conv1d(cin, cout, 1) if cin != cout else nn.Identity()
        self.cout = cout

    def forward(self, x, cond):
        modulation = self.film(nn.functional.mish(cond))
        scale, bias = modulation[:, : self.cout, None], modulation[:, self.cout :, None]
        return self.block1(scale * self.block0(x) + bias) + self.residual(x)


class EmbeddingMlp(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.l0 = nn.Linear(dim, 4 * dim)
        self.l1 = nn.Linear(4 * dim, dim)
        self.dim = dim

    def forward(self, value):
        return self.l1(nn.functional.mish(self.l0(sinusoid(value, self.dim))))


class Unet1d(nn.Module):
    """Levels of widths dims: two residual blocks each (their output kept), a strided conv between levels; two mid
    blocks; up levels that concatenate the kept output of the level they are at, two residual blocks to the next-finer
    width and a transposed conv; the finest level's kept output is not read. A final conv block and a 1x1 conv."""

    def __init__(self, action_dim, feature_dim, dims, kernel, groups, embed, shortcut):
        super().__init__()
        self.time = EmbeddingMlp(embed)
        self.step = EmbeddingMlp(embed) if shortcut else None
        cond = (2 if shortcut else 1) * embed + feature_dim
        self.down = nn.ModuleList()
        widths = [action_dim, *dims]
        for level, width in enumerate(dims):
            self.down.append(nn.ModuleDict({
                "res0": ResidualBlock(widths[level], width, cond, kernel, groups),
                "res1": ResidualBlock(width, width, cond, kernel, groups),
                **({"downsample": nn.Conv1d(width, width, 3, stride=2, padding=1)} if level + 1 < len(dims) else {}),
            }))
        self.mid = nn.ModuleList([ResidualBlock(dims[-1], dims[-1], cond, kernel, groups) for _ in range(2)])
        self.up = nn.ModuleList()
        for up_index in range(len(dims) - 1):
            coarse, width = dims[-1 - up_index], dims[-2 - up_index]
            self.up.append(nn.ModuleDict({
                "res0": ResidualBlock(2 * coarse, width, cond, kernel, groups),
                "res1": ResidualBlock(width, width, cond, kernel, groups),
                "upsample": nn.ConvTranspose1d(width, width, 4, stride=2, padding=1),
            }))
        self.final = ConvBlock(dims[0], dims[0], kernel, groups)
        self.output = nn.Conv1d(dims[0], action_dim, 1)

    def forward(self, x, t, d, features):
        embeds = [self.time(t)] + ([self.step(d)] if self.step is not None else [])
        cond = torch.cat([*embeds, features], dim=1)
        h = x.transpose(1, 2)  # [B, H, A] -> [B, A, H]
        kept = []
        for level in self.down:
            h = level["res1"](level["res0"](h, cond), cond)
            kept.append(h)
            if "downsample" in level:
                h = level["downsample"](h)
        for block in self.mid:
            h = block(h, cond)
        for up_index, level in enumerate(self.up):
            h = torch.cat([h, kept[len(kept) - 1 - up_index]], dim=1)
            h = level["upsample"](level["res1"](level["res0"](h, cond), cond))
        last = self.final(h)
        return self.output(last).transpose(1, 2), last.mean(dim=2)


def load(net, weights):
    """Copies Flowtune's tensors into the torch module, transposed to torch's layouts; every tensor is used once."""
    used = set()

    def tensor(name):
        entry = weights[name]
        used.add(name)
        return torch.tensor(np.array(entry["data"], dtype=np.float32).reshape(entry["shape"]), dtype=torch.float64)

    def linear(module, prefix):
        module.weight.data = tensor(f"{prefix}.kernel").T.contiguous()
        module.bias.data = tensor(f"{prefix}.bias")

    def conv(module, prefix, transposed=False):
        kernel = tensor(f"{prefix}.kernel")
        if kernel.dim() == 2:  # a 1x1 conv stored as a dense kernel [in, out]
            kernel = kernel[None]
        module.weight.data = kernel.permute(1, 2, 0).contiguous() if transposed else kernel.permute(2, 1, 0).contiguous()
        module.bias.data = tensor(f"{prefix}.bias")

    def conv_block(module, prefix):
        conv(module.conv, f"{prefix}.conv")
        module.norm.weight.data = tensor(f"{prefix}.norm.gamma")
        module.norm.bias.data = tensor(f"{prefix}.norm.beta")

    def residual(module, prefix):
        conv_block(module.block0, f"{prefix}.block0")
        linear(module.film, f"{prefix}.film")
        conv_block(module.block1, f"{prefix}.block1")
        if isinstance(module.residual, nn.Conv1d):
            conv(module.residual, f"{prefix}.residual")

    for name, mlp in (("time", net.time), ("step", net.step)):
        if mlp is not None:
            linear(mlp.l0, f"velocity.{name}.0")
            linear(mlp.l1, f"velocity.{name}.1")
    for level_index, level in enumerate(net.down):
        residual(level["res0"], f"velocity.down.{level_index}.res0")
        residual(level["res1"], f"velocity.down.{level_index}.res1")
        if "downsample" in level:
            conv(level["downsample"], f"velocity.down.{level_index}.downsample")
    for block_index, block in enumerate(net.mid):
        residual(block, f"velocity.mid.res{block_index}")
    for up_index, level in enumerate(net.up):
        residual(level["res0"], f"velocity.up.{up_index}.res0")
        residual(level["res1"], f"velocity.up.{up_index}.res1")
        conv(level["upsample"], f"velocity.up.{up_index}.upsample", transposed=True)
    conv_block(net.final, "velocity.final")
    conv(net.output, "velocity.output")
    unused = set(weights) - used
    if unused:
        raise SystemExit(f"tensors the torch module does not read: {sorted(unused)}")


def main():
    if len(sys.argv) != 2:
        raise SystemExit("usage: unet1d_crosscheck.py EXPORTED.json")
    with open(sys.argv[1]) as file:
        exported = json.load(file)
    options, inputs, outputs = exported["options"], exported["inputs"], exported["outputs"]
    horizon, action_dim, batch = options["horizon"], options["actionDim"], inputs["batch"]
    net = Unet1d(action_dim, inputs["featureDim"], options["unetDims"], options["unetKernel"], options["unetGroups"],
                 options["timeEmbedDim"], options["shortcut"]).double()
    load(net, exported["weights"])
    shapes = {"x": (batch, horizon, action_dim), "t": (batch,), "d": (batch,), "features": (batch, inputs["featureDim"])}
    tensors = {name: torch.tensor(np.array(inputs[name], dtype=np.float32).reshape(shape), dtype=torch.float64) for name, shape in shapes.items()}
    expected = {name: torch.tensor(outputs[name], dtype=torch.float64) for name in ("velocity", "hidden")}
    deltas = {}
    # float32 is what tfjs computes in; float64 shows how far float32 rounding alone moves the outputs.
    for dtype in (torch.float32, torch.float64):
        net = net.to(dtype)
        with torch.no_grad():
            velocity, hidden = net(*(tensors[name].to(dtype) for name in ("x", "t", "d", "features")))
        deltas[dtype] = max((velocity.reshape(-1).double() - expected["velocity"]).abs().max().item(),
                            (hidden.reshape(-1).double() - expected["hidden"]).abs().max().item())
        scale = velocity.abs().max().item()
    print(f"unet_dims {options['unetDims']}, kernel {options['unetKernel']}, groups {options['unetGroups']}, H {horizon}, "
          f"shortcut {options['shortcut']}: max |velocity| {scale:.4f}; max |delta| (velocity and hidden) against torch "
          f"float32 {deltas[torch.float32]:.3e}, float64 {deltas[torch.float64]:.3e}")
    if deltas[torch.float32] > TOLERANCE:
        raise SystemExit(f"max |delta| against torch in float32 is above {TOLERANCE}")

if __name__ == "__main__":
    main()
