/**
 * A stopped stage-1 BC as a `.flowtune` file (DESIGN.md §6's layout): the raw weights as the
 * model tensors, tfjs Adam's moments and the weight averages as optimizer slots, and the step,
 * random streams, open loss window, clock and a digest of the BC samples as metadata `resume`.
 * Reading one checks everything against the stage about to continue it, and names the first
 * thing that differs, so a BC only ever continues on the same samples with the same settings.
 */
import type { FlowtuneContents } from '../checkpoint/checkpoint-writer';
import type { DecodedFlowtune } from '../checkpoint/checkpoint-reader';
import type { JsonObject, TensorData } from '../checkpoint/checkpoint-types';
import { bundleContents } from '../checkpoint/policy-checkpoint';
import { CONFIG_KEYS, configFromJson, formatFieldValue, getField, type ConfigKey, type RunConfig } from '../config';
import { CheckpointError, ConfigError } from '../errors';
import type { PolicyBundle } from '../policy/policy-bundle';
import type { BcDataset } from '../rl/bc-dataset';
import type { PretrainState } from '../rl/pretrain';
import { count, decodeRng, encodeRng, fail, finite, list, object, type Json } from './resume-fields';

/** Bumped when the layout changes; another version is refused. */
export const PRETRAIN_RESUME_VERSION = 1;

/** Settings that may differ on a resumed BC: how long it runs, how often it evaluates and saves, none of which changes a step. */
const FREE_KEYS: ReadonlySet<ConfigKey> = new Set(['pretrain.steps', 'pretrain.eval_every', 'pretrain.save_every']);

/** Whether stage 1's steps read the key: the task, the seed, the policy, its env and pretrain.* (PPO's sections and eval_episodes they do not). */
function stepsRead(key: ConfigKey): boolean {
  if (FREE_KEYS.has(key)) return false;
  return key === 'task' || key === 'seed' || ['policy.', 'env.', 'pretrain.'].some((prefix) => key.startsWith(prefix));
}

/** What a resumed stage needs: its loop state, the raw weights, and the seconds it had trained. */
export interface PretrainResume {
  state: PretrainState;
  weights: Map<string, TensorData>;
  elapsedSeconds: number;
}

/**
 * A 64-bit digest (two independent 32-bit multiply-xorshift lanes over the bytes) of the BC
 * samples: observations, action chunks and images. A guard against another demos file, not a cryptographic hash.
 */
export function bcDatasetDigest(dataset: BcDataset): string {
  let a = 0x811c9dc5 ^ dataset.size;
  let b = 0x9e3779b9 ^ Math.imul(dataset.size, 0x85ebca6b);
  const fold = (bytes: Uint8Array) => {
    for (let index = 0; index < bytes.length; index++) {
      a = Math.imul(a ^ bytes[index], 0x01000193);
      b = Math.imul(b ^ bytes[index], 0x5bd1e995);
      b ^= b >>> 15;
    }
    a = Math.imul(a ^ bytes.length, 0x01000193);
  };
  for (const part of [dataset.obs, dataset.actions, dataset.images]) {
    if (part) fold(new Uint8Array(part.buffer, part.byteOffset, part.byteLength));
  }
  const hex = (word: number) => (word >>> 0).toString(16).padStart(8, '0');
  return hex(a) + hex(b);
}

/** The file contents of a BC stopped after `state.step` steps. */
export async function pretrainResumeContents(input: {
  bundle: PolicyBundle; config: RunConfig; state: PretrainState; elapsedSeconds: number; datasetDigest: string;
}): Promise<FlowtuneContents> {
  const { bundle, config, state } = input;
  const resume: JsonObject = {
    kind: 'pretrain',
    format_version: PRETRAIN_RESUME_VERSION,
    step: state.step,
    rng: encodeRng(state.rng),
    shift_rng: encodeRng(state.shiftRng),
    // A non-finite loss window reads as null in JSON; it is only ever printed.
    loss_sum: Number.isFinite(state.lossSum) ? state.lossSum : null,
    loss_count: state.lossCount,
    elapsed_s: input.elapsedSeconds,
    dataset_digest: input.datasetDigest,
    adam: { iterations: state.optimizer.iterations, acc_beta1: state.optimizer.accBeta1, acc_beta2: state.optimizer.accBeta2, order: state.optimizer.slots.map((slot) => slot.name) },
  };
  const contents = await bundleContents({ bundle, task: config.task, stage: 'bc', config, step: state.step, evalSummary: {}, resume });
  const shapes = bundle.policy.shapes;
  const slots = new Map<string, TensorData>();
  for (const slot of state.optimizer.slots) {
    const shape = [...shapes.get(slot.name)!];
    slots.set(`bc.${slot.name}.m`, { shape, data: slot.m });
    slots.set(`bc.${slot.name}.v`, { shape, data: slot.v });
  }
  for (const [name, values] of state.ema) slots.set(`ema.${name}`, { shape: [...shapes.get(name)!], data: values });
  return { ...contents, optimizer: { state: { bc: { kind: 'tfjs-adam', step: state.optimizer.iterations } }, tensors: slots } };
}

/**
 * The state in a decoded resume file, for a stage about to run with `config` on samples of
 * `datasetDigest`; `source` names the file. A file that is not a stage-1 resume state, or is
 * malformed, is a CheckpointError; other settings or other samples are a ConfigError naming the first difference.
 */
export function readPretrainResume(decoded: DecodedFlowtune, expected: { config: RunConfig; datasetDigest: string; emaDecay: number }, source: string): PretrainResume {
  const refuse = (what: string): never => { throw new CheckpointError(`${source} ${what}`); };
  const resume = decoded.metadata.resume;
  if (decoded.metadata.stage !== 'bc' || resume?.kind !== 'pretrain') refuse('is not the saved state of a stopped npm run pretrain');
  const field = (key: string) => (resume as Json)[key];
  if (field('format_version') !== PRETRAIN_RESUME_VERSION) refuse(`has resume format ${JSON.stringify(field('format_version'))}, but this build reads ${PRETRAIN_RESUME_VERSION}`);

  let stored: RunConfig;
  try {
    stored = configFromJson(decoded.metadata.config, `${source}'s config`);
  } catch (error) {
    return refuse(`holds no usable config: ${(error as Error).message}`);
  }
  const changed = CONFIG_KEYS.find((key) => stepsRead(key) && formatFieldValue(getField(stored, key)) !== formatFieldValue(getField(expected.config, key)));
  if (changed) {
    throw new ConfigError(changed, `${changed} is ${formatFieldValue(getField(expected.config, changed))} here but ${formatFieldValue(getField(stored, changed))} in ${source}; resume with the stopped BC's settings`);
  }
  if (field('dataset_digest') !== expected.datasetDigest) {
    throw new ConfigError('demos', `the BC samples differ from those ${source} was trained on: resume with the same demos file and pretrain.episodes`);
  }

  const adam = object(field('adam'), 'adam');
  const order = list(adam.order, 'adam.order');
  if (!order.every((name) => typeof name === 'string')) fail('adam.order', 'must be a list of parameter names');
  const slot = (name: string, which: 'm' | 'v') => decoded.optimizer?.tensors.get(`bc.${name}.${which}`)?.data ?? refuse(`has no Adam moment '${which}' for '${name}'`);
  const ema = new Map<string, Float32Array>();
  if (expected.emaDecay > 0) {
    for (const name of decoded.tensors.keys()) ema.set(name, decoded.optimizer?.tensors.get(`ema.${name}`)?.data ?? refuse(`has no weight average for '${name}'`));
  }
  const lossSum = field('loss_sum');
  const state: PretrainState = {
    step: count(field('step'), 'step'),
    optimizer: {
      iterations: finite(adam.iterations, 'adam.iterations'),
      accBeta1: finite(adam.acc_beta1, 'adam.acc_beta1'),
      accBeta2: finite(adam.acc_beta2, 'adam.acc_beta2'),
      slots: (order as string[]).map((name) => ({ name, m: slot(name, 'm'), v: slot(name, 'v') })),
    },
    ema,
    rng: decodeRng(field('rng'), 'rng'),
    shiftRng: decodeRng(field('shift_rng'), 'shift_rng'),
    lossSum: lossSum === null ? NaN : finite(lossSum, 'loss_sum'),
    lossCount: count(field('loss_count'), 'loss_count'),
  };
  if (state.step !== decoded.metadata.training.step) refuse(`says step ${state.step} in 'resume' but ${decoded.metadata.training.step} in 'training'`);
  return { state, weights: decoded.tensors, elapsedSeconds: finite(field('elapsed_s'), 'elapsed_s') };
}
