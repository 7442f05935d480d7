import { beforeAll, describe, expect, it } from 'vitest';
import { createNodeShardedEnv, loadMujocoNode } from '../../cli/mujoco-node';
import type { BatchEnv } from '../envs/batch-env';
import { InThreadBatchEnv } from '../envs/in-thread-batch-env';
import type { Mujoco } from '../envs/mujoco-types';
import type { EpisodeRecord } from '../envs/task-env';
import type { VectorEnvConfig } from '../envs/vector-env-config';
import { createRng } from '../random';
import { stackEpisodeObs } from './episode-obs-stack';
import { ObsHistory, type HistorySpacing } from './obs-history';

let mj: Mujoco;
beforeAll(async () => {
  mj = await loadMujocoNode();
});

const N_OBS = 3;
const N_STEPS = 4;

interface SeenStack {
  envIndex: number;
  /** Which of that env's episodes, and the control step inside it. */
  episode: number;
  step: number;
  stack: Float32Array;
}

/**
 * Steps random chunks and keeps the history every decision would see, then checks each
 * against the finished episode's recorded observations stacked `stride` steps apart: with
 * stride 1 exactly the rule BC's dataset and the replay's chain view use.
 */
async function expectHistoriesMatchEpisodes(env: BatchEnv, spacing: HistorySpacing, stride: number): Promise<void> {
  const numEnvs = env.numEnvs;
  const history = new ObsHistory(numEnvs, env.obsDim, N_OBS);
  history.reset(await env.reset(Array.from({ length: numEnvs }, (_, envIndex) => 70 + envIndex)));
  const episodeIndex = new Array(numEnvs).fill(0);
  const stepInEpisode = new Array(numEnvs).fill(0);
  const seen: SeenStack[] = [];
  const finished: EpisodeRecord[][] = Array.from({ length: numEnvs }, () => []);
  const rng = createRng(3);
  for (let decision = 0; decision < 12; decision++) {
    const stacks = history.stacked();
    for (let envIndex = 0; envIndex < numEnvs; envIndex++) {
      const size = history.stackedDim;
      seen.push({ envIndex, episode: episodeIndex[envIndex], step: stepInEpisode[envIndex], stack: stacks.slice(envIndex * size, (envIndex + 1) * size) });
    }
    const actions = Float32Array.from({ length: numEnvs * N_STEPS * env.actionDim }, () => 2 * rng.uniform() - 1);
    const result = await env.stepChunk(actions, N_STEPS, 0.99);
    history.advance(result, N_STEPS, spacing);
    for (let envIndex = 0; envIndex < numEnvs; envIndex++) {
      const done = result.terminated[envIndex] || result.truncated[envIndex];
      stepInEpisode[envIndex] = done ? 0 : stepInEpisode[envIndex] + result.steps[envIndex];
      if (done) episodeIndex[envIndex]++;
    }
    for (const episode of await env.drainEpisodes()) finished[episode.envIndex].push(episode);
  }
  let checked = 0;
  for (const entry of seen) {
    const record = finished[entry.envIndex][entry.episode];
    if (!record) continue;
    expect(Array.from(entry.stack), `env ${entry.envIndex} episode ${entry.episode} step ${entry.step}`)
      .toEqual(Array.from(stackEpisodeObs(record.obs!, env.obsDim, N_OBS, entry.step, stride)));
    checked++;
  }
  // Episodes of 10 steps: several end in 48 steps, so stacks across episode starts are among those checked.
  expect(checked).toBeGreaterThan(numEnvs * 8);
}

describe('observation history spacing', () => {
  const config: VectorEnvConfig = { task: 'lift', numEnvs: 3, recordEpisodes: true, maxEpisodeSteps: 10 };

  it('step spacing: every decision sees the last n_obs_steps control steps, as BC stacks demos', async () => {
    const env = new InThreadBatchEnv(mj, config);
    try {
      await expectHistoriesMatchEpisodes(env, 'step', 1);
    } finally {
      await env.dispose();
    }
  });

  it('step spacing over worker-sharded envs gives the same stacks', async () => {
    const env = await createNodeShardedEnv(config, { numWorkers: 2 });
    try {
      await expectHistoriesMatchEpisodes(env, 'step', 1);
    } finally {
      await env.dispose();
    }
  }, 60_000);

  it('decision spacing: frames n_action_steps apart, as the replay stacks them for that spacing', async () => {
    // Episodes of 10 steps with chunks of 4 end mid-chunk, where decision frames are not evenly spaced:
    // 12 steps per episode keeps every chunk whole.
    const env = new InThreadBatchEnv(mj, { ...config, maxEpisodeSteps: 12 });
    try {
      await expectHistoriesMatchEpisodes(env, 'decision', N_STEPS);
    } finally {
      await env.dispose();
    }
  });
});
