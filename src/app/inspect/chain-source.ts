import { create } from 'zustand';
import type { ChainSample, ChainSampleRequest } from '../../protocol/trainer-api';

/** Where the chain view takes its observation: an env's live state, or one step of a stored episode. */
export type ChainSource = { kind: 'env' } | { kind: 'episode'; id: string; step: number };

interface ChainSourceState {
  source: ChainSource;
  /** Points the chain view at control step `step` of stored episode `id`. */
  showEpisodeStep(id: string, step: number): void;
  /** Back to the chosen env's live observation. */
  showLiveEnv(): void;
}

export const useChainSource = create<ChainSourceState>()((set) => ({
  source: { kind: 'env' },
  showEpisodeStep: (id, step) => set({ source: { kind: 'episode', id, step } }),
  showLiveEnv: () => set({ source: { kind: 'env' } }),
}));

/** The sampling request for a source: the env's observation, or the episode step's. */
export function chainRequest(source: ChainSource, envIndex: number, count: number, seed: number): ChainSampleRequest {
  return source.kind === 'episode' ? { envIndex, count, seed, episode: { id: source.id, step: source.step } } : { envIndex, count, seed };
}

/** Where a sample's observation came from, for the chain view's header. */
export function chainSourceLabel(sample: Pick<ChainSample, 'obsSource' | 'envIndex' | 'episode'>): string {
  if (sample.obsSource === 'episode' && sample.episode) return `episode ${sample.episode.id}, step ${sample.episode.step}`;
  return sample.obsSource === 'rollout' ? `env ${sample.envIndex}, live rollout` : `env ${sample.envIndex}, seeded reset (no rollout yet)`;
}

/** For an image policy, which camera images conditioned the chains, in one sentence; undefined for other policies. */
export function cameraImagesText(sample: Pick<ChainSample, 'cameraImages'>): string | undefined {
  if (sample.cameraImages === 'decision') return 'The policy also saw the camera images of this decision, as the env rendered them.';
  if (sample.cameraImages === 'recorded-pose') {
    return 'The policy also saw this step\'s camera images, ray-cast again from the recorded pose (episodes keep poses, not pixels), so some pixels at edges can differ from what the rollout saw.';
  }
  return undefined;
}
