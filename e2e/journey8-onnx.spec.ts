import { expect, test } from '@playwright/test';
import onnxProto from 'onnx-proto';
import * as ort from 'onnxruntime-node';
import { exportOnnxChecked, openStudio, waitForIteration } from './studio';

test.describe('journey 8: deploy the policy as ONNX', () => {
  test('Export → ONNX is checked in onnxruntime-web against the live policy, and the file runs in onnxruntime', async ({ page }, testInfo) => {
    test.setTimeout(240_000);
    await openStudio(page, { backend: 'wasm', overrides: ['iterations=2'] });
    await expect(page.getByTestId('export-tfjs')).toHaveText('Flowtune weights (tfjs)');

    // No run yet: the selected checkpoint on a seeded reset.
    const idle = await exportOnnxChecked(page);
    expect(idle.text).toContain('the selected checkpoint');
    expect(idle.text).toContain('after a seeded reset');
    expect(idle.maxAbsDifference).toBeLessThan(1e-5);

    await page.getByTestId('step').click();
    await waitForIteration(page, 1);
    const trained = await exportOnnxChecked(page);
    expect(trained.name).toBe('pick-cube-ppo-it1.onnx');
    expect(trained.text).toMatch(/^onnxruntime-web matches the live policy: max \|Δ\| .* on env 0's newest rollout observation$/);
    expect(trained.maxAbsDifference).toBeLessThan(1e-5);
    await page.getByTestId('export-panel').screenshot({ path: testInfo.outputPath('export-onnx.png') });

    // A ModelProto starts with field 1 (ir_version, varint): 0x08. onnxruntime-node loads and runs it.
    expect(trained.bytes[0]).toBe(0x08);
    const session = await ort.InferenceSession.create(trained.bytes);
    try {
      expect(session.inputNames).toEqual(['obs', 'x0']);
      expect(session.outputNames).toEqual(['actions']);
      const props = new Map(onnxProto.onnx.ModelProto.decode(trained.bytes).metadataProps.map((entry) => [entry.key, entry.value]));
      expect(props.get('task')).toBe('pick-cube');
      const meta = (name: string) => Number(props.get(name));
      const [nObs, obsDim, horizon, actionDim, nAction] = ['n_obs_steps', 'obs_dim', 'horizon', 'action_dim', 'n_action_steps'].map(meta);
      const batch = 3;
      const outputs = await session.run({
        obs: new ort.Tensor('float32', new Float32Array(batch * nObs * obsDim), [batch, nObs, obsDim]),
        x0: new ort.Tensor('float32', new Float32Array(batch * horizon * actionDim), [batch, horizon, actionDim]),
      });
      expect(outputs.actions.dims).toEqual([batch, nAction, 4]);
      expect([...(outputs.actions.data as Float32Array)].every(Number.isFinite)).toBe(true);
    } finally {
      await session.release();
    }
  });
});

