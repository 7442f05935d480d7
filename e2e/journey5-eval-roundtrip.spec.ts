import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { openStudio } from './studio';

const EVAL_SEED = 1_000_000;
const EVAL_EPISODES = 12;

interface EvalLine {
  success_rate: number;
  mean_return: number;
  mean_length: number;
}

test.describe('journey 5: the exported model evaluates the same in Node', () => {
  test('npm run eval on an exported .flowtune matches the studio eval of the same seeds', async ({ page }, testInfo) => {
    test.setTimeout(300_000);
    // The shipped lift BC checkpoint (not a tiny fixture), so success is neither all 0 nor all 1.
    await openStudio(page, {
      backend: 'wasm',
      task: 'lift',
      overrides: ['task=lift', 'iterations=1', 'eval.every=1', `eval_episodes=${EVAL_EPISODES}`, `eval.seed=${EVAL_SEED}`, 'env.steps_per_iteration=4', 'policy.horizon=8', 'policy.n_action_steps=4', 'policy.n_obs_steps=2'],
    });
    await expect(page.getByTestId('meta-stage')).toHaveText('bc');
    await page.getByTestId('train').click();
    await expect(page.getByTestId('phase')).toHaveText('done', { timeout: 240_000 });

    const [metricsDownload] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-jsonl').click()]);
    const records = readFileSync((await metricsDownload.path())!, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, number>);
    const last = records[records.length - 1];
    const studio: EvalLine = { success_rate: last['eval/success_rate'], mean_return: last['eval/episode_return'], mean_length: last['eval/episode_length'] };
    expect(Number.isFinite(studio.mean_return)).toBe(true);

    const [modelDownload] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-flowtune').click()]);
    const ckpt = testInfo.outputPath(modelDownload.suggestedFilename());
    writeFileSync(ckpt, readFileSync((await modelDownload.path())!));
    const stdout = execFileSync('npx', ['tsx', path.resolve('src/cli/eval.ts'), 'task=lift', `ckpt=${ckpt}`, `episodes=${EVAL_EPISODES}`, `seed=${EVAL_SEED}`, `batch=${EVAL_EPISODES}`], { encoding: 'utf8' });
    const node = JSON.parse(stdout.trim().split('\n').pop()!) as EvalLine;
    console.log(`studio eval ${JSON.stringify(studio)}; npm run eval ${JSON.stringify(node)}`);
    // Same weights, seeds and x_0 stream: the same episodes. Returns may differ in the last float digits.
    expect(node.success_rate).toBe(studio.success_rate);
    expect(node.mean_length).toBe(studio.mean_length);
    expect(Math.abs(node.mean_return - studio.mean_return)).toBeLessThan(1e-3 * Math.max(1, Math.abs(studio.mean_return)));
  });
});
