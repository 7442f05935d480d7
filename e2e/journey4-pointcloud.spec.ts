import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { openStudio } from './studio';

/** The shipped point-cloud checkpoint: pick-cube, 128 points, DiT-X 64×2. */
const SHIPPED = path.resolve('public/checkpoints/pick-cube-pointcloud-bc.flowtune');
const NUM_POINTS = 128;

/** The last TCP paths the chain-paths view drew, as the e2e build exposes them. */
interface ExposedPaths {
  count: number;
  obsSource: string;
  episode?: { id: string; step: number };
  unposedGeoms: number[];
  pointCloud?: { points: number[]; shares: number[] };
}

function exposedPaths(page: Page): Promise<ExposedPaths | undefined> {
  return page.evaluate(() => (window as unknown as { __flowtuneChainPaths?: ExposedPaths }).__flowtuneChainPaths);
}

/** Drops a file on the model panel's drop zone, as a user drags it in. */
async function dropFile(page: Page, file: string): Promise<void> {
  const base64 = readFileSync(file).toString('base64');
  const dataTransfer = await page.evaluateHandle(({ encoded, name }) => {
    const transfer = new DataTransfer();
    const bytes = Uint8Array.from(atob(encoded), (char) => char.charCodeAt(0));
    transfer.items.add(new File([bytes], name));
    return transfer;
  }, { encoded: base64, name: path.basename(file) });
  await page.getByTestId('dropzone').dispatchEvent('drop', { dataTransfer });
}

/** The model panel shows the point-cloud DiT-X checkpoint, and the picker its variant. */
async function expectPointCloudModel(page: Page): Promise<void> {
  await expect(page.getByTestId('meta-architecture')).toContainText(`point cloud ${NUM_POINTS} pts`);
  await expect(page.getByTestId('meta-architecture')).toContainText('DiT-X 64×2');
  await expect(page.getByTestId('task')).toHaveValue('pick-cube:pointcloud');
}

/** Checks the point-cloud overlay of the chain-paths view against the sample it drew. */
async function expectOverlay(page: Page): Promise<ExposedPaths> {
  await expect(page.getByTestId('chain-paths')).toHaveAttribute('data-pending', '0', { timeout: 120_000 });
  const overlay = page.getByTestId('point-cloud-overlay');
  await expect(overlay).toBeVisible();
  await expect(overlay).toHaveAttribute('data-points', String(NUM_POINTS));
  await expect(overlay).toContainText(`${NUM_POINTS} points the policy sees`);
  const paths = (await exposedPaths(page))!;
  expect(paths.pointCloud!.points).toHaveLength(NUM_POINTS * 3);
  expect(paths.pointCloud!.shares).toHaveLength(NUM_POINTS);
  // Every max-pool channel has one winning point: the shares sum to 1, and some point wins.
  expect(paths.pointCloud!.shares.reduce((sum, share) => sum + share, 0)).toBeCloseTo(1, 4);
  expect(Math.max(...paths.pointCloud!.shares)).toBeGreaterThan(1 / NUM_POINTS);
  // Points in the world frame (m), near the robot's workspace.
  expect(paths.pointCloud!.points.every((value) => Number.isFinite(value) && Math.abs(value) < 2)).toBe(true);
  // The cube has no pose in a point cloud: it is left out (one geom), and the note says so.
  expect(paths.unposedGeoms).toHaveLength(1);
  await expect(page.getByTestId('chain-paths-note')).toContainText('the objects are left out, and the points show where they are');
  await expect(page.getByTestId('camera-hint')).toHaveText('drag to orbit · wheel to zoom · right-drag to pan');
  return paths;
}

test.describe('journey 4: the point cloud a policy sees', () => {
  test('a dropped point-cloud checkpoint switches the studio; after one iteration the chain view draws and the overlay shows its 128 points', async ({ page }) => {
    test.setTimeout(300_000);
    await openStudio(page, { backend: 'webgpu', overrides: ['iterations=400', 'eval.every=0'] });
    await expect(page.getByTestId('backend')).toHaveText('webgpu');
    await expect(page.getByTestId('task')).toHaveValue('pick-cube');

    await dropFile(page, SHIPPED);
    const notice = page.getByTestId('checkpoint-notice');
    await expect(notice).toHaveClass(/notice-ok/);
    await expect(notice).toContainText('pick-cube-pointcloud-bc.flowtune');
    await expectPointCloudModel(page);

    await page.getByTestId('step').click();
    await expect(page.getByTestId('phase')).toHaveText('paused', { timeout: 240_000 });
    await expect(page.getByTestId('status-iteration')).toHaveText('1');

    await page.getByTestId('tab-inspect').click();
    const view = page.getByTestId('chain-view');
    await expect(page.getByTestId('chain-meta')).toContainText('model run', { timeout: 120_000 });
    await expect(view).toHaveAttribute('data-pending', '0');
    const chains = await page.evaluate(() => (window as unknown as { __flowtuneChains: { count: number; actionDim: number } }).__flowtuneChains);
    expect(chains.count).toBe(16);
    await expect(page.getByTestId('chain-dim-0').locator('path.chain-line, path.chain-ode')).toHaveCount(chains.count + 1);
    await expect(page.getByTestId('chain-charts').locator('figure')).toHaveCount(chains.actionDim);

    const paths = await expectOverlay(page);
    expect(paths.obsSource).toBe('rollout');
    await expect(page.getByTestId('chain-paths')).toHaveAttribute('data-chains', '16');
  });

  test('the task picker\'s point-cloud entry loads the shipped point-cloud checkpoint, and the plain entry the state one', async ({ page }) => {
    await openStudio(page, { backend: 'wasm' });
    const picker = page.getByTestId('task');
    await expect(picker.locator('option[value="pick-cube:pointcloud"]')).toHaveText('pick-cube · point cloud');
    await picker.selectOption('pick-cube:pointcloud');
    await expectPointCloudModel(page);
    await expect(page.getByTestId('checkpoint-meta')).toContainText('checkpoints/pick-cube-pointcloud-bc.flowtune');
    await expect(page.getByTestId('meta-stage')).toHaveText('bc');

    await picker.selectOption('pick-cube');
    await expect(page.getByTestId('meta-architecture')).toHaveText(/^state · MLP \[32, 32\]/);
    await expect(picker).toHaveValue('pick-cube');
  });

  test('gallery, replay and chains at an episode step work for a point-cloud run; the paths and points follow the episode step', async ({ page }) => {
    test.setTimeout(300_000);
    await openStudio(page, { backend: 'wasm', overrides: ['iterations=1', 'eval.every=1', 'eval_episodes=2'] });
    await page.getByTestId('task').selectOption('pick-cube:pointcloud');
    await expectPointCloudModel(page);
    await page.getByTestId('tab-inspect').click();
    await page.getByTestId('train').click();
    await expect(page.getByTestId('phase')).toHaveText('done', { timeout: 240_000 });

    const firstEval = page.locator('[data-testid="gallery-row"][data-source="eval"]').first();
    const episodeId = (await firstEval.getAttribute('data-episode-id'))!;
    await firstEval.click();
    const replay = page.getByTestId('replay-view');
    await expect(replay).toHaveAttribute('data-episode', episodeId);
    await expect(replay).toHaveAttribute('data-loading', '0');
    await expect(page.getByTestId('replay-error')).toHaveCount(0);
    const live = await expectOverlay(page);
    expect(live.obsSource).toBe('rollout');
    // The evaluation's recorded episode becomes a video, rendered from its qpos.
    await expect(page.getByTestId('video-entry')).toHaveCount(1, { timeout: 120_000 });
    await expect(page.getByTestId('video-pending')).toHaveCount(0);

    await page.getByTestId('replay-scrub').fill('3');
    await expect.poll(async () => Number((await page.getByTestId('replay-frame').textContent())?.split('/')[0])).toBe(3);
    await page.getByTestId('replay-chains').click();
    await expect(page.getByTestId('chain-source-label')).toHaveText(`episode ${episodeId}, step 3`, { timeout: 60_000 });
    await expect.poll(async () => (await exposedPaths(page))?.episode?.step, { timeout: 60_000 }).toBe(3);
    await expect(page.getByTestId('chain-paths-source')).toHaveText(`episode ${episodeId}, step 3`);
    const atStep = await expectOverlay(page);
    expect(atStep.obsSource).toBe('episode');
    expect(atStep.episode).toEqual({ id: episodeId, step: 3 });
    // Another observation: other points.
    expect(atStep.pointCloud!.points).not.toEqual(live.pointCloud!.points);
  });
});
