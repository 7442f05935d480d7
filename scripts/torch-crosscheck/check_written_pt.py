#!/usr/bin/env python3
"""Load the .pt and .npz files our writers produce with torch and numpy themselves, and print
what they read, so the writer tests can pin torch's own figures.

Run by hand with Debian's PyTorch and numpy (apt-get install python3-torch):
  npx tsx scripts/torch-crosscheck/write_samples.ts /tmp/written
  /usr/bin/python3 scripts/torch-crosscheck/check_written_pt.py /tmp/written/checkpoint.pt /tmp/written/linear.pt /tmp/written/arrays.npz
A .pt is loaded with torch.load(weights_only=True), which refuses any pickle opcode or global
outside a state dict's (torch 1.13 refuses floats too). A .pt holding just 'weight' and 'bias'
is also loaded into an nn.Linear with strict=True. Each .npz entry is compared byte for byte
with what np.save writes for the array numpy read.
"""
import io
import json
import pickletools
import struct
import sys
import zipfile

import numpy as np
import torch


def zip_layout(path):
    """Entry names, compression, and whether each entry's data starts at a multiple of 64."""
    with open(path, 'rb') as handle:
        raw = handle.read()
    out = []
    for info in zipfile.ZipFile(path).infolist():
        name_len, extra_len = struct.unpack('<HH', raw[info.header_offset + 26:info.header_offset + 30])
        start = info.header_offset + 30 + name_len + extra_len
        out.append({'name': info.filename, 'stored': info.compress_type == zipfile.ZIP_STORED, 'aligned64': start % 64 == 0})
    return out


def describe(value, path, out):
    if isinstance(value, torch.Tensor):
        out[path] = {'dtype': str(value.dtype).replace('torch.', ''), 'shape': list(value.shape),
                     'stride': list(value.stride()), 'sum': value.double().sum().item()}
    elif isinstance(value, dict):
        out[path] = type(value).__module__ + '.' + type(value).__name__ + f' of {len(value)}'
        for key, item in value.items():
            describe(item, f'{path}.{key}' if path else key, out)
    else:
        out[path] = repr(value)


def check_pt(path):
    archive = zipfile.ZipFile(path)
    pickle_name = next(name for name in archive.namelist() if name.endswith('/data.pkl'))
    opcodes = sorted({op.name for op, _, _ in pickletools.genops(archive.read(pickle_name))})
    loaded = torch.load(path, weights_only=True)
    values = {}
    describe(loaded, '', values)
    report = {'zip': zip_layout(path), 'opcodes': opcodes, 'values': values}
    if isinstance(loaded, dict) and set(loaded) == {'weight', 'bias'}:
        out_features, in_features = loaded['weight'].shape
        linear = torch.nn.Linear(in_features, out_features)
        result = linear.load_state_dict(loaded, strict=True)
        report['linear'] = {'load_state_dict': str(result), 'output_for_ones': linear(torch.ones(in_features)).tolist()}
    return report


def check_npz(path):
    report = {'zip': zip_layout(path), 'arrays': {}}
    archive = zipfile.ZipFile(path)
    with np.load(path, allow_pickle=False) as arrays:
        for key in arrays.files:
            array = arrays[key]
            again = io.BytesIO()
            np.save(again, array)
            report['arrays'][key] = {'dtype': array.dtype.str, 'shape': list(array.shape), 'sum': float(array.sum()),
                                     'same_bytes_as_np_save': again.getvalue() == archive.read(key + '.npy')}
    return report


if __name__ == '__main__':
    print(f'torch {torch.__version__}, numpy {np.__version__}')
    for path in sys.argv[1:]:
        report = check_npz(path) if path.endswith('.npz') else check_pt(path)
        print(path)
        for section, value in report.items():
            if isinstance(value, dict):
                for key, item in value.items():
                    print(f'  {section} {key or "(top)"}: {json.dumps(item)}')
            else:
                print(f'  {section}: {json.dumps(value)}')
