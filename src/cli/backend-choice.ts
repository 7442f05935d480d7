/**
 * `backend=auto|wasm|cpu|webgpu` for the training commands: a named backend is started as asked
 * (webgpu through Dawn; no adapter is an error), and `auto` times the model at the run's sizes on
 * each backend that starts in Node and keeps the fastest, by core/backend's rule. cpu is timed only
 * when nothing else starts; a lone backend that starts is used without timing.
 */
import type { PolicyCheckpoint } from '../core/checkpoint/checkpoint-open';
import type { RunConfig } from '../core/config/run-config';
import { speedsSummary, workloadOf, type BackendSpeed } from '../core/backend/backend-speed';
import { chooseBySpeed, type BackendFailure } from '../core/backend/choose-by-speed';
import { timedSizes, timeModel } from '../core/backend/model-timing';
import { QUICK_SPEED_PLAN, type SpeedPlan } from '../core/backend/policy-speed';
import type { CliArgSpec } from './cli-args';
import { adapterName } from './dawn-adapter';
import { nodeWebgpuAdapter, useNodeBackend, type NodeBackend } from './node-backend';

export const BACKEND_SETTINGS = ['auto', 'wasm', 'cpu', 'webgpu'] as const;
export type BackendSetting = (typeof BACKEND_SETTINGS)[number];

export const BACKEND_ARG = {
  kind: 'enum',
  values: BACKEND_SETTINGS,
  default: 'auto',
  doc: 'tfjs backend: auto times the model on each backend that starts (webgpu via Dawn, wasm; cpu only if neither starts) and keeps the fastest',
} as const satisfies CliArgSpec;

/** The model `auto` times; absent for a Gaussian policy, which is not timed (wasm). */
export interface TimedModel {
  config: RunConfig;
  checkpoint?: PolicyCheckpoint;
}

export interface CliBackendChoice {
  backend: NodeBackend;
  /** One line for stderr: the backend in use, and how it was chosen. */
  line: string;
  /** The figures `auto` measured, fastest first; empty when nothing was timed. */
  speeds: BackendSpeed[];
}

export interface ChoiceOptions {
  /** Backends `auto` tries, in order of preference (default webgpu, wasm). */
  candidates?: readonly NodeBackend[];
  plan?: SpeedPlan;
}

function label(backend: NodeBackend): string {
  const adapter = backend === 'webgpu' ? nodeWebgpuAdapter() : undefined;
  return adapter ? `webgpu (${adapterName(adapter)})` : backend;
}

function failureText(failures: readonly BackendFailure[]): string {
  return failures.map((failure) => `; ${failure.backend} did not start: ${failure.reason}`).join('');
}

async function started(candidates: readonly NodeBackend[], failures: BackendFailure[]): Promise<NodeBackend[]> {
  const ok: NodeBackend[] = [];
  for (const backend of candidates) {
    try {
      await useNodeBackend(backend);
      ok.push(backend);
    } catch (error) {
      failures.push({ backend, reason: (error as Error).message });
    }
  }
  return ok;
}

/**
 * For a resumed run under `auto`: the backend it was saved on, untimed, so it continues bit-exact;
 * when that one does not start here, `auto`'s choice, with the reason in the line.
 */
export async function chooseResumedBackend(saved: NodeBackend, model: TimedModel | undefined, options: ChoiceOptions = {}): Promise<CliBackendChoice> {
  try {
    await useNodeBackend(saved);
    return { backend: saved, line: `backend: ${label(saved)} (auto: the backend the run was saved on, so it continues bit-exact)`, speeds: [] };
  } catch (error) {
    const choice = await chooseCliBackend('auto', model, options);
    return { ...choice, line: `${choice.line}; the run was saved on ${saved}, which did not start (${(error as Error).message}), so it may not continue bit-exact` };
  }
}

/** Starts the backend `setting` names, or the one `auto` chooses for `model`; leaves it in use. */
export async function chooseCliBackend(setting: BackendSetting, model: TimedModel | undefined, options: ChoiceOptions = {}): Promise<CliBackendChoice> {
  if (setting !== 'auto') {
    await useNodeBackend(setting);
    return { backend: setting, line: `backend: ${label(setting)} (backend=${setting})`, speeds: [] };
  }
  if (!model) {
    await useNodeBackend('wasm');
    return { backend: 'wasm', line: 'backend: wasm (auto: only flow policies on state or point clouds are timed; others train on wasm)', speeds: [] };
  }
  const failures: BackendFailure[] = [];
  let usable = await started(options.candidates ?? ['webgpu', 'wasm'], failures);
  if (usable.length === 0) usable = await started(['cpu'], failures);
  if (usable.length <= 1) {
    const backend = usable[0] ?? 'wasm';
    await useNodeBackend(backend);
    return { backend, line: `backend: ${label(backend)} (auto: the only backend that started${failureText(failures)})`, speeds: [] };
  }
  const { config, checkpoint } = model;
  const choice = await chooseBySpeed(usable, [], workloadOf(config), {
    start: async (backend) => void (await useNodeBackend(backend as NodeBackend)),
    measure: (_backend, boundSeconds) => timeModel(config, checkpoint, boundSeconds, options.plan ?? QUICK_SPEED_PLAN),
  });
  const backend = choice.backend as NodeBackend;
  return {
    backend,
    line: `backend: ${label(backend)} (auto, timed at ${timedSizes(config)}: ${speedsSummary(choice.speeds)}${failureText([...failures, ...choice.failures])})`,
    speeds: choice.speeds,
  };
}
