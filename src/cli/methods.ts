/**
 * The fine-tuning methods `npm run results -- compare=methods` sets side by side and `npm run
 * reproduce -- methods` trains: each method's run folders under runs=, the BC checkpoint under
 * ckpts= it starts from, and the `npm run train` command line that makes one of its runs on a row.
 * Every method of a row trains for the same 1M env steps, each seed from the same BC dataset.
 *
 * A row measured by return (locomotion) takes ReinFlow's Gym recipes, a row with a success rule its
 * ManiSkill ones (reference 003); `<task>-rgb` and `<task>-pointcloud` rows start from checkpoints
 * that see the camera or the point cloud. A method whose policy family cannot read a row's
 * observation is not applicable there, and says why.
 */
import { applyOverrides, CONFIG_FIELDS, defaultConfig, listConfigProblems, PRESETS, type PresetName } from '../core/config';
import { ROW_VARIANTS, rowVariant, taskOfRow } from './task-row';

export type MethodId = 'gaussian' | 'flowsde' | 'reinflow' | 'dppo' | 'shortcut';

/** The BC checkpoint a method starts from: `<ckpts>/<row>-<kind>.flowtune`. */
export type StartKind = 'bc' | 'diffusion-bc' | 'shortcut-bc';

export interface Method {
  readonly id: MethodId;
  readonly label: string;
  /** The BC checkpoint it fine-tunes; none for a run from scratch. */
  readonly start?: StartKind;
  /** What a run's config.json says when it is this method's: its policy family, and a flow policy's noise. */
  readonly kind: 'gaussian' | 'flow' | 'diffusion';
  readonly noise?: 'sde' | 'noise';
}

/** The methods, in table order. */
export const METHODS: readonly Method[] = [
  { id: 'gaussian', label: 'Gaussian PPO from scratch', kind: 'gaussian' },
  { id: 'flowsde', label: 'BC → Flow-SDE (πRL)', start: 'bc', kind: 'flow', noise: 'sde' },
  { id: 'reinflow', label: 'BC → learned noise (ReinFlow)', start: 'bc', kind: 'flow', noise: 'noise' },
  { id: 'dppo', label: 'diffusion BC → DPPO', start: 'diffusion-bc', kind: 'diffusion' },
  { id: 'shortcut', label: 'ShortCut BC → ReinFlow', start: 'shortcut-bc', kind: 'flow', noise: 'noise' },
];

/** The rows compared by default: ReinFlow's Gym tasks, and seed 003's pick-cube from state and from the camera. */
export const METHOD_ROWS: readonly string[] = ['hopper', 'walker2d', 'pick-cube', 'pick-cube-rgb'];

/**
 * ReinFlow's walker2d critic (lr 4e-3, 5 iterations of warm-up: 40k env steps here) for both flow fine-tunes. The actor
 * keeps the preset's step (2e-4 over minibatches of 512): ReinFlow's walker2d 4e-4 over whole-rollout epochs left the
 * clip binding on 3-6% of samples, as hopper's old step did.
 */
const ROW_FLOW_KEYS: Readonly<Record<string, readonly string[]>> = {
  walker2d: ['critic_lr=4e-3', 'ppo.critic_warmup_steps=40000'],
};

/**
 * The manipulation rows' flow BC samples at the default K; reinflow-baseline's K = 8 is seed 003's ShortCut chain. Its
 * learned-noise fine-tune keeps the BC's K, so it starts from the policy that was measured: the K = 4 pick-cube BC
 * sampled at K = 8 succeeds in 11 of 30 episodes, where it succeeds in about half at K = 4.
 */
const BC_CHAIN_KEYS: readonly string[] = [`policy.denoise_steps=${CONFIG_FIELDS['policy.denoise_steps'].default}`];

/** How a row's method trains: its preset (none: the run-config defaults) and the keys after it. */
export interface MethodRecipe {
  readonly preset?: PresetName;
  readonly keys: readonly string[];
}

/** A method on a row: its recipe, or why it does not apply there. */
export type MethodOnRow = { readonly recipe: MethodRecipe } | { readonly notApplicable: string };

export function methodById(id: MethodId): Method {
  return METHODS.find((method) => method.id === id)!;
}

/** The observation keys a from-scratch run of the row needs (a fine-tune's checkpoint brings its own). */
function observationKeys(row: string): string[] {
  const variant = rowVariant(row);
  return variant ? [`env.obs_type=${ROW_VARIANTS[variant]}`] : [];
}

/** Seed 003's ShortCut runs are ManiSkill's (pick-cube, state or camera); ReinFlow's Gym runs start from 1-ReFlow. */
const SHORTCUT_NOT_GYM = 'seed 003 runs ShortCut BC → ReinFlow on its manipulation task; ReinFlow\'s Gym runs start from 1-ReFlow BC';

function recipeOf(row: string, hasSuccess: boolean, id: MethodId): MethodRecipe | string {
  const camera = rowVariant(row) === '-rgb';
  const flowKeys = ROW_FLOW_KEYS[row] ?? [];
  switch (id) {
    case 'gaussian': return { preset: 'gaussian-ppo', keys: observationKeys(row) };
    case 'flowsde': return hasSuccess ? { keys: [] } : { preset: 'locomotion-flowsde', keys: flowKeys };
    case 'reinflow': return hasSuccess ? { preset: 'reinflow-baseline', keys: BC_CHAIN_KEYS } : { preset: 'locomotion-reinflow', keys: flowKeys };
    case 'dppo': return { preset: hasSuccess ? 'dppo-manipulation' : 'dppo', keys: [] };
    case 'shortcut': return hasSuccess ? { preset: camera ? 'reinflow-pickcube-rgb' : 'reinflow-baseline', keys: [] } : SHORTCUT_NOT_GYM;
  }
}

/**
 * The method on a row: not applicable when seed 003 does not run it there, or when its policy family
 * cannot read the row's observation (the config's own sentence on policy.kind or env.obs_type).
 */
export function methodOnRow(row: string, hasSuccess: boolean, id: MethodId): MethodOnRow {
  const recipe = recipeOf(row, hasSuccess, id);
  if (typeof recipe === 'string') return { notApplicable: recipe };
  const method = methodById(id);
  const config = applyOverrides(defaultConfig(), [
    `task=${taskOfRow(row)}`, ...observationKeys(row), ...(recipe.preset ? PRESETS[recipe.preset].overrides : []), ...recipe.keys, `policy.kind=${method.kind}`,
  ]);
  const problem = listConfigProblems(config).find((entry) => entry.field === 'policy.kind' || entry.field === 'env.obs_type');
  // The sentence without its advice to switch family ("; use policy.kind=flow"), which a table row has no use for.
  return problem ? { notApplicable: problem.message.replace(/; use [^;]*$/, '') } : { recipe };
}

/** A run folder's name under runs=; ReinFlow's on a locomotion row is the locomotion stage's `<task>-ppo-s<seed>`. */
export function runName(row: string, hasSuccess: boolean, id: MethodId, seed: number | '<seed>'): string {
  const stem = { gaussian: 'gaussian', flowsde: 'flowsde', reinflow: hasSuccess ? 'reinflow' : 'ppo', dppo: 'dppo', shortcut: 'shortcut-ppo' }[id];
  return `${row}-${stem}-s${seed}`;
}

/** The file name under ckpts= of the BC checkpoint a method starts from on a row, or undefined for a run from scratch. */
export function startFileName(row: string, id: MethodId): string | undefined {
  const { start } = methodById(id);
  return start ? `${row}-${start}.flowtune` : undefined;
}

/** The `npm run train --` arguments that make one run of a method on a row into `<runs>/<runName>`. */
export function trainArguments(row: string, hasSuccess: boolean, id: MethodId, recipe: MethodRecipe, seed: number, dirs: { runs: string; ckpts: string }): string[] {
  const start = startFileName(row, id);
  return [
    `task=${taskOfRow(row)}`,
    ...(start ? [`ckpt=${joinPath(dirs.ckpts, start)}`] : []),
    ...(recipe.preset ? [`preset=${recipe.preset}`] : []),
    `seed=${seed}`, `out=${joinPath(dirs.runs, runName(row, hasSuccess, id, seed))}`, 'overwrite=true',
    ...recipe.keys,
  ];
}

function joinPath(folder: string, name: string): string {
  return `${folder.replace(/\/+$/, '')}/${name}`;
}

/** What a run's config.json holds that tells the methods apart. */
export interface RunSignature {
  policy?: { kind?: string };
  noise?: { method?: string };
}

/** Why a run folder's config is not this method's (one clause), or undefined when it is. */
export function signatureMismatch(config: RunSignature, id: MethodId): string | undefined {
  const method = methodById(id);
  const kind = config.policy?.kind ?? 'flow';
  if (kind !== method.kind) return `it trained a ${kind} policy, not ${method.label}'s ${method.kind} one`;
  const noise = config.noise?.method;
  if (method.noise && noise !== method.noise) return `it trained with noise.method=${noise}, not ${method.label}'s noise.method=${method.noise}`;
  return undefined;
}
