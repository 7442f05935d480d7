/**
 * `npm run demos -- task=T episodes=N seed=S noise=x out=FILE`: runs the task's
 * scripted expert and writes a demonstration file (src/core/envs/demo-format.ts).
 * Prints progress on stderr and one JSON summary line on stdout, with the count of episodes the
 * physics ended by going unstable (the env's instability check, src/core/envs/task-env.ts).
 */
import { resolveTaskArgument } from './task-loading';
import { writeFileSync } from 'node:fs';
import { parseCliArgs, runCli } from './cli-args';
import { loadMujocoNode } from './mujoco-node';
import { collectExpertDemos } from '../core/envs/expert-rollout';
import { demoMetadataFor, writeDemoFile } from '../core/envs/demo-format';
import { OBS_MODES } from '../core/envs/task-types';
import { observationSpec } from '../core/envs/observation';
import { getTask } from '../core/envs/task-registry';

const SPEC = {
  task: { kind: 'string', required: true, doc: 'task whose scripted expert makes the demos: a built-in name, or ./path/ to a task of your own' },
  episodes: { kind: 'int', min: 1, max: 100000, default: 100, doc: 'number of episodes' },
  seed: { kind: 'int', min: 0, max: 2 ** 30, default: 0, doc: 'episode e resets with seed + e' },
  noise: { kind: 'number', min: 0, max: 2, default: 0, doc: 'std of Gaussian noise on the expert actions' },
  obs: { kind: 'enum', values: OBS_MODES, default: 'state', doc: 'observation mode' },
  num_points: { kind: 'int', min: 1, max: 8192, default: 256, doc: 'points per point-cloud observation' },
  out: { kind: 'string', required: true, doc: 'output file (.demos)' },
} as const;

async function main(): Promise<void> {
  const args = parseCliArgs((await resolveTaskArgument(process.argv.slice(2))), SPEC, { program: 'npm run demos --' });
  const mj = await loadMujocoNode();
  let successes = 0;
  let unstableEpisodes = 0;
  const progressEvery = Math.max(1, Math.floor(args.episodes / 10));
  const demos = collectExpertDemos(mj, {
    task: args.task, episodes: args.episodes, seed: args.seed, noise: args.noise, obsMode: args.obs, numPoints: args.num_points,
    onEpisode: (episodeIndex, success, unstable) => {
      if (success) successes++;
      if (unstable) unstableEpisodes++;
      if ((episodeIndex + 1) % progressEvery === 0) console.error(`episode ${episodeIndex + 1}/${args.episodes}: success ${successes}/${episodeIndex + 1}`);
    },
  });
  const task = getTask(args.task);
  const metadata = demoMetadataFor(demos, {
    seed: args.seed, noise: args.noise, obsSlices: observationSpec(task, args.obs, args.num_points).slices, maxEpisodeSteps: task.maxEpisodeSteps,
  });
  const bytes = writeDemoFile(demos, metadata);
  writeFileSync(args.out, bytes);
  console.log(JSON.stringify({
    task: args.task, episodes: metadata.episodes, steps: metadata.steps, success_rate: metadata.success_rate,
    noise: args.noise, seed: args.seed, out: args.out, bytes: bytes.length, unstable_episodes: unstableEpisodes,
  }));
}

void runCli(main);
