/** The trainer worker's exports (DESIGN.md §1 journeys 5 and 8): the model as .flowtune, tfjs weights and ONNX. Types only. */

/** Exported files of the model in use. */
export interface ModelExport {
  flowtune: Uint8Array;
  modelJson: string;
  weightsBin: Uint8Array;
  /** The weights file's name as model.json's manifest names it. */
  weightsFileName: string;
  baseName: string;
}

/** A peer's own layout that Export writes back: ReinFlow's FlowMLP (a flow policy) or DPPO's DiffusionMLP (a diffusion policy). */
export type PeerFormat = 'reinflow' | 'dppo';

/** A policy of a peer's layout as the peer's own files (DESIGN.md §18 "Going back"). */
export interface PeerFiles {
  baseName: string;
  format: PeerFormat;
  /** `<baseName>.pt`, which the peer reads with torch.load(weights_only=True) and load_state_dict(strict=True). */
  pt: Uint8Array;
  /** `normalization.npz`: obs_min, obs_max, action_min, action_max. */
  normalization: Uint8Array;
  /** What was written, one line each. */
  notes: string[];
}

/** The observation, x_0 and live-policy actions an ONNX export is checked on in the page (row-major float32). */
export interface OnnxCheckInputs {
  /** [1, n_obs_steps, obs_dim], env units. */
  obs: Float32Array;
  obsShape: [number, number, number];
  /** [1, H, A]; empty for a policy whose graph takes no x0 (a Gaussian policy's), and then not fed. */
  x0: Float32Array;
  x0Shape: [number, number, number];
  /** An image policy's uint8 camera images of the same observation [1, cameras, size, size, channels]; absent for other policies, and then not fed. */
  images?: Uint8Array;
  imagesShape?: [number, number, number, number, number];
  /** [1, n_action_steps, A_env]: the tfjs policy's deterministic actions (a flow policy's ODE actions, a Gaussian policy's mean), env units. */
  actions: Float32Array;
  /** The run's newest rollout observation of env 0, or a seeded reset's when there is no rollout yet. */
  obsSource: 'rollout' | 'reset';
}

/** The model in use as one ONNX graph of its deterministic policy (DESIGN.md §6 "ONNX"). */
export interface OnnxExport {
  name: string;
  bytes: Uint8Array;
  /** The run's model, or the selected checkpoint's when there is no run. */
  model: 'run' | 'selected';
  check: OnnxCheckInputs;
}

/** The run's (or the selected) model as files. */
export interface ExportApi {
  /** The run's model, or the selected checkpoint's with no run. */
  exportModel(): Promise<ModelExport>;
  /** The run's policy (or the selected checkpoint's, with no run) as ONNX, with the inputs the page checks it on. */
  exportOnnx(): Promise<OnnxExport>;
  /** The run's (or the selected) policy as ReinFlow's .pt and normalization.npz; a policy of another layout is one sentence. */
  exportPeer(): Promise<PeerFiles>;
}
