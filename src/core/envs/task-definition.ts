/**
 * A task module's export checked against the contract (task-api.ts) and resolved against its
 * compiled scene: controls with their action sizes, the observation entries, the defaults filled
 * in. Every refusal is one TaskError sentence naming where the task came from and the field.
 */
import { contentHash } from '../content-hash';
import { ConfigError, TaskError } from '../errors';
import type { Rng } from '../random';
import type { Mujoco } from './mujoco-types';
import type { ObservationSliceMode, RewardMode, TaskExpert, TaskPointCloud, TaskRender, TaskScene, TaskSpec, TaskStepResult, TaskView } from './task-api';
import { checkWorkspaceBox } from './camera/workspace-box';
import { compileScene, readSceneSource, type SceneFiles, type SceneSource } from './task-scene';
import { OBSERVATION_SLICE_MODES } from './task-types';

/** A control with its action size resolved (motor and position: one dim per actuator). */
export interface ResolvedControl {
  name: string;
  kind: 'motor' | 'position' | 'custom';
  dim: number;
  /** [nu, 2] each actuator's ctrlrange (motor and position). */
  ctrlRange?: Float64Array;
  act?: (view: TaskView, action: ArrayLike<number>, offset: number) => void;
}

/** One observation entry: its named slices in order, the function that writes them, and where they appear. */
export interface ObservationEntry {
  slices: readonly { name: string; dim: number; doc: string }[];
  dim: number;
  modes: readonly ObservationSliceMode[];
  read(view: TaskView, out: Float32Array, offset: number): void;
}

export interface TaskDefinition {
  readonly name: string;
  readonly doc: string;
  /** Where the task came from, for messages: 'built-in' or a file path or a dropped folder's name. */
  readonly origin: string;
  /** Hash of the scene (with its assets), the module text when known, and the task's shape. */
  readonly hash: string;
  /** Hashes of earlier versions whose checkpoints this one runs as they were trained (TaskSpec.formerHashes). */
  readonly formerHashes: readonly string[];
  readonly scene: SceneSource;
  readonly frameSkip: number;
  readonly maxEpisodeSteps: number;
  readonly stateSize: number;
  readonly hasSuccess: boolean;
  readonly rewardModes: readonly RewardMode[];
  readonly keyframe?: string;
  /** MuJoCo's constraint-island discovery on (the default) or off; the physics is the same either way. */
  readonly islands: boolean;
  readonly controls: ReadonlyMap<string, ResolvedControl>;
  readonly defaultControl: string;
  readonly observation: readonly ObservationEntry[];
  readonly reset: (view: TaskView, rng: Rng) => void;
  readonly step: (view: TaskView) => TaskStepResult;
  readonly expert?: { control: string; create(noise: number, rng: Rng): TaskExpert };
  readonly render: TaskRender;
  readonly pointCloud: TaskPointCloud;
  /** A user's task: how env workers load it too. */
  readonly module?: TaskModuleRef;
}

/** Where a task module came from: a label for messages, its files (scene, meshes), and its module text for the hash. */
export interface TaskOrigin {
  label: string;
  files?: SceneFiles;
  moduleText?: string;
  /** How other threads import the module again (a file: or blob: URL); built-ins have none. */
  url?: string;
}

/** What another thread (an env worker) needs to load the same task: its module's URL and folder files. */
export interface TaskModuleRef {
  url: string;
  label: string;
  files?: SceneFiles;
  moduleText?: string;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isFunction = (value: unknown): value is (...args: never[]) => unknown => typeof value === 'function';

function integerIn(origin: string, field: string, value: unknown, low: number, high: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < low || value > high) {
    throw new TaskError(`${origin}: ${field} must be an integer in [${low}, ${high}] (got ${JSON.stringify(value) ?? String(value)})`);
  }
  return value;
}

function observationEntries(origin: string, value: unknown): ObservationEntry[] {
  if (!Array.isArray(value) || value.length === 0) throw new TaskError(`${origin}: observation must be a non-empty list of slices ({ name, dim, read })`);
  const seen = Object.fromEntries(OBSERVATION_SLICE_MODES.map((mode) => [mode, new Set<string>()])) as Record<ObservationSliceMode, Set<string>>;
  return value.map((raw, index) => {
    const where = `observation[${index}]`;
    if (!isObject(raw) || !isFunction(raw.read)) throw new TaskError(`${origin}: ${where} must be an object with a read(view, out, offset) function`);
    const group = Array.isArray(raw.slices) ? raw.slices : [raw];
    const slices = group.map((slice: unknown, sliceIndex: number) => {
      const at = Array.isArray(raw.slices) ? `${where}.slices[${sliceIndex}]` : where;
      if (!isObject(slice) || typeof slice.name !== 'string' || !NAME.test(slice.name)) throw new TaskError(`${origin}: ${at}.name must be a plain name (letters, digits, '_', '-', '.')`);
      return { name: slice.name, dim: integerIn(origin, `${at}.dim`, slice.dim, 1, 1_000_000), doc: typeof slice.doc === 'string' ? slice.doc : '' };
    });
    const modes = raw.modes === undefined ? ['state' as const] : raw.modes;
    if (!Array.isArray(modes) || modes.length === 0 || modes.some((mode) => !(OBSERVATION_SLICE_MODES as readonly unknown[]).includes(mode))) {
      throw new TaskError(`${origin}: ${where}.modes must list some of ${OBSERVATION_SLICE_MODES.map((mode) => `'${mode}'`).join(', ')}`);
    }
    for (const mode of modes as ObservationSliceMode[]) {
      for (const slice of slices) {
        if (seen[mode].has(slice.name)) throw new TaskError(`${origin}: ${where} repeats the ${mode} slice name '${slice.name}'`);
        seen[mode].add(slice.name);
      }
    }
    return { slices, dim: slices.reduce((sum, slice) => sum + slice.dim, 0), modes: modes as ObservationSliceMode[], read: raw.read as ObservationEntry['read'] };
  });
}

function resolveControls(origin: string, spec: TaskSpec, mj: Mujoco | undefined, scene: SceneSource): { controls: Map<string, ResolvedControl>; defaultControl: string } {
  if ((spec.control === undefined) === (spec.controls === undefined)) throw new TaskError(`${origin}: give exactly one of control or controls`);
  const named = spec.controls ?? { default: spec.control! };
  if (!isObject(named) || Object.keys(named).length === 0) throw new TaskError(`${origin}: controls must name at least one control`);
  // Without MuJoCo (a built-in registered where no module is loaded) only custom controls resolve.
  const compiled = mj ? compileScene(mj, scene, origin) : undefined;
  try {
    const model = compiled?.model;
    const controls = new Map<string, ResolvedControl>();
    for (const [name, control] of Object.entries(named)) {
      const where = spec.controls ? `controls.${name}` : 'control';
      if (!NAME.test(name)) throw new TaskError(`${origin}: control name '${name}' must be a plain name`);
      if (!isObject(control)) throw new TaskError(`${origin}: ${where} must be { kind: 'motor' | 'position' | 'custom', ... }`);
      if (control.kind === 'custom') {
        if (!isFunction(control.act)) throw new TaskError(`${origin}: ${where}.act must be a function (view, action, offset)`);
        controls.set(name, { name, kind: 'custom', dim: integerIn(origin, `${where}.dim`, control.dim, 1, 4096), act: control.act });
      } else if (control.kind === 'motor' || control.kind === 'position') {
        if (!mj || !model) throw new TaskError(`${origin}: ${where} is '${control.kind}', which is sized from the compiled scene; load the task where MuJoCo is loaded`);
        if (model.nu === 0) throw new TaskError(`${origin}: ${where} is '${control.kind}', but the scene has no actuators`);
        // A ctrlrange of [0, 0] is MuJoCo's unset range (the bool ctrllimited array has no typed view in the bindings).
        const range = Float64Array.from(model.actuator_ctrlrange as Float64Array);
        for (let actuator = 0; actuator < model.nu; actuator++) {
          if (!(range[2 * actuator + 1] > range[2 * actuator])) {
            const actuatorName = mj.mj_id2name(model, mj.mjtObj.mjOBJ_ACTUATOR.value, actuator) ?? `#${actuator}`;
            throw new TaskError(`${origin}: actuator '${actuatorName}' has no ctrlrange, so a ${control.kind} action in [-1, 1] cannot be scaled to it; give it ctrlrange (ctrllimited="true")`);
          }
        }
        controls.set(name, { name, kind: control.kind, dim: model.nu, ctrlRange: range });
      } else {
        throw new TaskError(`${origin}: ${where}.kind must be 'motor', 'position' or 'custom' (got ${JSON.stringify((control as { kind?: unknown }).kind)})`);
      }
    }
    const defaultControl = spec.defaultControl ?? Object.keys(named)[0];
    if (!controls.has(defaultControl)) throw new TaskError(`${origin}: defaultControl '${defaultControl}' is not one of ${[...controls.keys()].join(', ')}`);
    if (compiled && spec.keyframe !== undefined && compiled.keyId(spec.keyframe) < 0) throw new TaskError(`${origin}: keyframe '${spec.keyframe}' is not a keyframe of the scene`);
    return { controls, defaultControl };
  } finally {
    compiled?.dispose();
  }
}

/**
 * Checks a module's export against the contract and resolves it against its scene (which must
 * compile, when MuJoCo is given); throws TaskError.
 */
export function compileTask(exported: unknown, origin: TaskOrigin, mj?: Mujoco): TaskDefinition {
  const from = origin.label;
  const isModule = Object.prototype.toString.call(exported) === '[object Module]';
  const spec = (isObject(exported) && isObject(exported.default) ? exported.default : exported) as TaskSpec;
  if (!isObject(spec) || (isModule && !('name' in spec) && !('step' in spec))) {
    throw new TaskError(`${from}: the module exports no task; end it with export default defineTask({ ... }) or export default { ... }`);
  }
  if (typeof spec.name !== 'string' || !NAME.test(spec.name)) throw new TaskError(`${from}: name must be a plain name (letters, digits, '_', '-', '.'; at most 64)`);
  for (const field of ['reset', 'step'] as const) if (!isFunction(spec[field])) throw new TaskError(`${from}: ${field} must be a function`);
  if (typeof spec.scene !== 'string' && !isFunction(spec.scene)) throw new TaskError(`${from}: scene must be MJCF text, a path to an .xml file beside the module, or a function returning MJCF`);
  const scene = readSceneSource(spec.scene as TaskScene, origin.files, from);
  const frameSkip = integerIn(from, 'frameSkip', spec.frameSkip, 1, 1000);
  const maxEpisodeSteps = integerIn(from, 'maxEpisodeSteps', spec.maxEpisodeSteps, 1, 1_000_000);
  const stateSize = integerIn(from, 'stateSize', spec.stateSize ?? 0, 0, 10_000);
  if (spec.islands !== undefined && typeof spec.islands !== 'boolean') throw new TaskError(`${from}: islands must be true or false`);
  const formerHashes = spec.formerHashes ?? [];
  if (!Array.isArray(formerHashes) || formerHashes.some((hash) => typeof hash !== 'string' || !/^[0-9a-f]{16}$/.test(hash))) {
    throw new TaskError(`${from}: formerHashes must list task hashes of 16 hex digits`);
  }
  const observation = observationEntries(from, spec.observation);
  const rewardModes = spec.rewardModes ?? ['dense'];
  if (!Array.isArray(rewardModes) || !rewardModes.includes('dense') || rewardModes.some((mode) => mode !== 'dense' && mode !== 'sparse')) {
    throw new TaskError(`${from}: rewardModes must list 'dense' and optionally 'sparse'`);
  }
  const { controls, defaultControl } = resolveControls(from, spec, mj, scene);
  let expert: TaskDefinition['expert'];
  if (spec.expert !== undefined) {
    if (!isObject(spec.expert) || !isFunction(spec.expert.create)) throw new TaskError(`${from}: expert must be { control?, create(noise, rng) }`);
    const control = spec.expert.control ?? defaultControl;
    if (!controls.has(control)) throw new TaskError(`${from}: expert.control '${control}' is not one of ${[...controls.keys()].join(', ')}`);
    expert = { control, create: spec.expert.create };
  }
  // The image modes stay out of the hash, as they were before they existed, so checkpoints made earlier stay valid;
  // an image policy's checkpoint records its proprioception size in its architecture.
  const hashedModes = (modes: readonly ObservationSliceMode[]) => modes.filter((mode) => mode === 'state' || mode === 'pointcloud');
  const shape = JSON.stringify({ frameSkip, maxEpisodeSteps, stateSize, controls: [...controls.values()].map(({ name, kind, dim }) => [name, kind, dim]), observation: observation.map((entry) => [entry.slices, hashedModes(entry.modes)]) });
  const assets = [...scene.assets].sort(([a], [b]) => a.localeCompare(b)).flatMap(([name, bytes]) => [name, bytes]);
  return {
    name: spec.name, doc: typeof spec.doc === 'string' ? spec.doc : '', origin: from,
    hash: contentHash([scene.xml, ...assets, origin.moduleText ?? '', shape]), formerHashes: [...formerHashes],
    scene, frameSkip, maxEpisodeSteps, stateSize, hasSuccess: spec.hasSuccess === true, rewardModes: [...rewardModes],
    keyframe: spec.keyframe, islands: spec.islands ?? true, controls, defaultControl, observation, reset: spec.reset, step: spec.step, expert,
    render: isObject(spec.render) ? spec.render : {}, pointCloud: pointCloudHints(from, spec.pointCloud),
    ...(origin.url ? { module: { url: origin.url, label: from, files: origin.files, moduleText: origin.moduleText } } : {}),
  };
}

/** The task's point-cloud hints; a workspace box, when given, is checked here. */
function pointCloudHints(origin: string, value: unknown): TaskPointCloud {
  if (!isObject(value)) return {};
  const hints = value as TaskPointCloud;
  return hints.workspace === undefined ? hints : { ...hints, workspace: checkWorkspaceBox(hints.workspace, `${origin}: pointCloud.workspace`) };
}

/** The control `name` picks ('' or absent: the task's default); a ConfigError-style TaskError lists the allowed names. */
export function taskControl(task: TaskDefinition, name: string | undefined): ResolvedControl {
  const control = task.controls.get(name || task.defaultControl);
  if (!control) throw new ConfigError('env.control_mode', `env.control_mode '${name}' is not a control of task '${task.name}'; its controls: ${[...task.controls.keys()].join(', ')}`);
  return control;
}

/** Imports a task module (file: or blob: URL) and compiles it; the importer is the host's (Node or a browser worker). */
export async function loadTaskModule(ref: TaskModuleRef, importModule: (url: string) => Promise<unknown>, mj?: Mujoco): Promise<TaskDefinition> {
  let exported: unknown;
  try {
    exported = await importModule(ref.url);
  } catch (error) {
    throw new TaskError(`${ref.label}: the module does not load: ${(error as Error).message}`);
  }
  return compileTask(exported, { label: ref.label, files: ref.files, moduleText: ref.moduleText, url: ref.url }, mj);
}
