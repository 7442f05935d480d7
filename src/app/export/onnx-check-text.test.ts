import { describe, expect, it } from 'vitest';
import { onnxCheckText } from './onnx-check-text';

describe('onnxCheckText', () => {
  it('says whether the export is faithful, with the difference and where it was measured', () => {
    expect(onnxCheckText(3.14e-7, 'rollout', 'run')).toBe("onnxruntime-web matches the live policy: max |Δ| 3.1e-7 on env 0's newest rollout observation");
    expect(onnxCheckText(2e-3, 'reset', 'selected')).toBe("onnxruntime-web differs from the selected checkpoint: max |Δ| 2.0e-3 on env 0's observation after a seeded reset, above 0.00001");
    expect(onnxCheckText(Infinity, 'reset', 'run')).toBe("onnxruntime-web's actions do not match the live policy: they differ in shape or are not finite");
  });
});
