/**
 * Export → ONNX in the studio (DESIGN.md §6 "ONNX"): the run's policy (or the selected
 * checkpoint's, with no run), of any family, as one ONNX graph, with what the page needs to check
 * the file in onnxruntime-web: env 0's observation (with its camera images, for an image policy),
 * an x_0 where the graph takes one, and the live tfjs policy's actions on them.
 */
import { TrainingError } from '../../src/core/errors';
import { createRng } from '../../src/core/random';
import { loadPolicy } from '../../src/core/run/families';
import type { OnnxExport } from '../../src/protocol/trainer-api';
import { idleInput } from './chain-requests';
import type { TrainingSession } from './training-session';

/** Seeds the check's x_0: drawn as the eval path draws it, so the tfjs actor and the page see the same one. */
const CHECK_SEED = 7;

export function exportOnnx(session: TrainingSession): Promise<OnnxExport> {
  return session.inspections.whenNoUpdate(async () => {
    const run = session.run;
    const selected = session.models.selected;
    if (!run && !selected) throw new TrainingError('there is no model to export: drop a checkpoint in, or train one first');
    // With no run, the session's config is the one the selected checkpoint was opened into.
    const config = run ? run.config : session.config;
    const policy = run ? run.learner : loadPolicy(selected!.checkpoint, config);
    try {
      const metadata = run ? (await run.contents()).metadata : selected!.checkpoint.metadata;
      const { bytes } = await policy.exportOnnx(metadata);
      const live = run?.stackedObs(0);
      const idle = live ? undefined : await idleInput(session, 0);
      const obs = live ?? idle!.obs;
      const { nObsSteps, obsFrameSize, x0Shape, imageShape } = policy.io;
      const images = imageShape ? (live ? run!.stackedImages(0) : idle!.images) : undefined;
      if (imageShape && !images) throw new TrainingError('the ONNX export of a camera policy is checked on env 0\'s images, but its env renders none; set env.obs_type to the policy\'s rgb or rgbd');
      const [horizon, actionDim] = x0Shape ?? [0, policy.io.actionDim];
      const x0 = createRng(CHECK_SEED).fillNormal(new Float32Array(horizon * actionDim));
      const actions = await policy.evalActor(config).act(obs, 1, createRng(CHECK_SEED), images);
      const name = run ? `${config.task}-ppo-it${run.iteration}.onnx` : selected!.info.source.replace(/^.*\//, '').replace(/\.(flowtune|json|tfjs\.zip)$/, '') + '.onnx';
      return {
        name, bytes, model: run ? 'run' : 'selected',
        check: {
          obs, obsShape: [1, nObsSteps, obsFrameSize], x0, x0Shape: [1, horizon, actionDim], actions, obsSource: live ? 'rollout' : 'reset',
          ...(images && imageShape ? { images, imagesShape: [1, ...imageShape] as [number, number, number, number, number] } : {}),
        },
      };
    } finally {
      if (!run) policy.dispose();
    }
  });
}
