/**
 * Export → ONNX in the studio (DESIGN.md §6 "ONNX"): the run's policy (or the selected
 * checkpoint's, with no run) as one ONNX graph, with what the page needs to check the file in
 * onnxruntime-web: env 0's observation, an x_0 and the live tfjs policy's actions on them.
 */
import { exportPolicyOnnx } from '../../src/core/checkpoint/onnx/export-onnx';
import { TrainingError } from '../../src/core/errors';
import { obsFrameSize } from '../../src/core/policy/options';
import { createRng } from '../../src/core/random';
import { bundleActor } from '../../src/core/rl/evaluate';
import type { OnnxExport } from '../../src/protocol/trainer-api';
import { idleObservation, idlePolicy } from './chain-requests';
import type { TrainingSession } from './training-session';

/** Seeds the check's x_0: drawn as the eval path draws it, so the tfjs actor and the page see the same one. */
const CHECK_SEED = 7;

export function exportOnnx(session: TrainingSession): Promise<OnnxExport> {
  return session.inspections.whenNoUpdate(async () => {
    const run = session.run;
    const selected = session.models.selected;
    if (!run && !selected) throw new TrainingError('there is no model to export: drop a checkpoint in, or train one first');
    const bundle = run ? run.bundle : await idlePolicy(session);
    // With no run, the session's config is the one the selected checkpoint was opened into.
    const config = run ? run.config : session.config;
    const metadata = run ? (await run.contents()).metadata : selected!.checkpoint.metadata;
    const bytes = await exportPolicyOnnx(bundle, metadata);

    const live = run?.stackedObs(0);
    const obs = live ?? await idleObservation(session, 0);
    const { nObsSteps, horizon, actionDim } = bundle.policy.options;
    const x0 = createRng(CHECK_SEED).fillNormal(new Float32Array(horizon * actionDim));
    const actions = await bundleActor(bundle, config).act(obs, 1, createRng(CHECK_SEED));
    const name = run ? `${config.task}-ppo-it${run.iteration}.onnx` : selected!.info.source.replace(/^.*\//, '').replace(/\.(flowtune|json|tfjs\.zip)$/, '') + '.onnx';
    return {
      name, bytes, model: run ? 'run' : 'selected',
      check: {
        obs, obsShape: [1, nObsSteps, obsFrameSize(bundle.policy.options)], x0, x0Shape: [1, horizon, actionDim],
        actions, obsSource: live ? 'rollout' : 'reset',
      },
    };
  });
}
