/** The ONNX check's verdict as one line, e.g. "onnxruntime-web matches the live policy: max |Δ| 3.1e-7 on env 0's rollout observation". */
export const ONNX_FAITHFUL_TOLERANCE = 1e-5;

export function onnxCheckText(maxAbsDifference: number, obsSource: 'rollout' | 'reset', model: 'run' | 'selected'): string {
  const where = obsSource === 'rollout' ? "env 0's newest rollout observation" : "env 0's observation after a seeded reset";
  const which = model === 'run' ? 'the live policy' : 'the selected checkpoint';
  if (!Number.isFinite(maxAbsDifference)) return `onnxruntime-web's actions do not match ${which}: they differ in shape or are not finite`;
  const size = maxAbsDifference.toExponential(1);
  return maxAbsDifference <= ONNX_FAITHFUL_TOLERANCE
    ? `onnxruntime-web matches ${which}: max |Δ| ${size} on ${where}`
    : `onnxruntime-web differs from ${which}: max |Δ| ${size} on ${where}, above ${ONNX_FAITHFUL_TOLERANCE}`;
}
