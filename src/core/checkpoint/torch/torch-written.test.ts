import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isPickleDict } from './pickle-values';
import { ForeignTensor } from './tensor-dtypes';
import { readTorchCheckpoint } from './torch-pt-reader';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * fixtures/views-dtypes.pt was written by torch itself (Debian's python3-torch 1.13):
 *   /usr/bin/python3 scripts/torch-crosscheck/make_views_pt.py
 * which also printed the values pinned here (tensor.tolist()).
 */
describe('a file torch.save wrote with views, a Parameter and every converted dtype', () => {
  const value = readTorchCheckpoint(readFileSync(path.join(here, 'fixtures/views-dtypes.pt')), { label: 'views-dtypes.pt' });
  const tensor = (name: string): ForeignTensor => {
    const found = isPickleDict(value) ? value.get(name) : undefined;
    if (!(found instanceof ForeignTensor)) throw new Error(`no tensor '${name}'`);
    return found;
  };

  it('gathers a transposed view and a strided slice of one shared storage in row-major order', () => {
    expect(tensor('transposed').shape).toEqual([4, 3]);
    expect([...tensor('transposed').data]).toEqual([0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11]);
    expect(tensor('sliced').shape).toEqual([2, 2]);
    expect([...tensor('sliced').data]).toEqual([4, 6, 8, 10]);
  });

  it('converts float64, half and bfloat16 to float32 and keeps int32 and int64 exact', () => {
    expect([tensor('float64').dtype, ...tensor('float64').data]).toEqual(['float64', Math.fround(0.1), -2.5]);
    expect([tensor('half').dtype, ...tensor('half').data]).toEqual(['float16', 1.5, -2]);
    expect([tensor('bfloat16').dtype, ...tensor('bfloat16').data]).toEqual(['bfloat16', 3.140625, 1]);
    expect([tensor('int64').dtype, ...tensor('int64').data]).toEqual(['int64', 9007199254740993n, -7n]);
    expect([tensor('int32').dtype, ...tensor('int32').data]).toEqual(['int32', 5n, 6n]);
    expect([tensor('bool').dtype, ...tensor('bool').data]).toEqual(['bool', 1, 0, 1]);
  });

  it('reads an nn.Parameter (torch._utils._rebuild_parameter) as its data', () => {
    expect([tensor('parameter').dtype, ...tensor('parameter').data]).toEqual(['float32', 1, 1]);
  });
});
