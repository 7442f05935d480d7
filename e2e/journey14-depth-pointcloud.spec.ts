import { expect, test, type Page } from '@playwright/test';
import { openStudio, tinyHash } from './studio';
import { canvasPixels } from './camera-canvas';

/** A tiny DiT-X point-cloud policy on pick-cube's depth camera, one iteration and one evaluation (as src/cli/train-depth-pointcloud.test.ts sizes it). */
const TINY_DITX = [
  'policy.velocity_net=ditx', 'policy.ditx_dim=32', 'policy.ditx_depth=1', 'policy.ditx_heads=4', 'policy.encoder_hidden=16,32',
  'num_envs=2', 'env.num_points=64', 'iterations=1', 'env.workers=1', 'env.steps_per_iteration=8', 'ppo.minibatch_size=8',
  'eval_episodes=2', 'eval.every=1', 'env.max_episode_steps=20',
];
const NUM_POINTS = 64;

/** The last TCP paths the chain-paths view drew, as the e2e build exposes them. */
function exposedCloud(page: Page): Promise<{ points: number[]; shares: number[] } | undefined> {
  return page.evaluate(() => (window as unknown as { __flowtuneChainPaths?: { pointCloud?: { points: number[]; shares: number[] } } }).__flowtuneChainPaths?.pointCloud);
}

test('journey 14: pick-cube from its depth camera trains a tiny DiT-X for one iteration; Inspect shows the camera image, its depth and the depth cloud', async ({ page }, testInfo) => {
  test.setTimeout(300_000);
  await openStudio(page, { backend: 'wasm' });
  const picker = page.getByTestId('task');
  // The variant is offered because pick-cube's scene names cameras; no checkpoint ships for it.
  await expect(picker.locator('option[value="pick-cube:depth_pointcloud"]')).toHaveText('pick-cube · depth point cloud');
  await picker.selectOption('pick-cube:depth_pointcloud');
  await expect(page.getByTestId('model-fresh')).toContainText('no shipped checkpoint for pick-cube (depth point cloud)');
  // The tiny DiT-X sizes arrive as a shared link does, in the URL hash.
  await page.evaluate((hash) => { window.location.hash = hash; }, tinyHash(['env.obs_type=depth_pointcloud', ...TINY_DITX]));
  await expect(page).toHaveURL(/policy\.velocity_net=ditx/);
  await expect(picker).toHaveValue('pick-cube:depth_pointcloud');
  await expect(page.getByTestId('config-notice')).toHaveCount(0);

  await page.getByTestId('tab-inspect').click();
  // Before any episode, the camera shows the task after a seeded reset.
  const panel = page.getByTestId('camera-panel');
  await expect(page.getByTestId('camera-source')).toHaveText('pick-cube after reset (seed 0) · 64×64');
  await expect(page.getByTestId('camera-picker').locator('option')).toHaveText(['front', 'wrist']);

  await page.getByTestId('train').click();
  await expect(page.getByTestId('phase')).toHaveText('done', { timeout: 240_000 });
  await expect(page.getByTestId('run-error')).toHaveCount(0);
  await expect(page.getByTestId('status-iteration')).toHaveText('1');
  // The run trained what the link asked for: the URL holds the run's config.
  await expect(page).toHaveURL(/env\.obs_type=depth_pointcloud/);
  await expect(page).toHaveURL(/policy\.velocity_net=ditx/);

  // An evaluation episode in the replay: the camera renders its frames.
  const firstEval = page.locator('[data-testid="gallery-row"][data-source="eval"]').first();
  const episodeId = (await firstEval.getAttribute('data-episode-id'))!;
  await expect(firstEval.locator('td[data-obs-type="depth_pointcloud"]')).toContainText('depth cloud');
  await firstEval.click();
  await expect(page.getByTestId('replay-view')).toHaveAttribute('data-loading', '0');
  await expect(page.getByTestId('replay-view')).toHaveAttribute('data-episode', episodeId);
  await page.getByTestId('replay-scrub').fill('3');
  await expect(page.getByTestId('camera-source')).toHaveText(`episode ${episodeId}, step 3 · 64×64`);
  await expect(panel).toHaveAttribute('data-pending', '0');
  await expect(page.getByTestId('camera-error')).toHaveCount(0);
  const rgb = await canvasPixels(page, 'camera-rgb');
  expect(rgb.width).toBe(64);
  // The front camera sees the table, the arm and the cube: most pixels are not background, in many colours.
  expect(rgb.foreground).toBeGreaterThan(rgb.pixels / 2);
  expect(rgb.distinct).toBeGreaterThan(20);
  const depth = await canvasPixels(page, 'camera-depth');
  expect(depth.distinct).toBeGreaterThan(20);
  const legend = page.getByTestId('depth-legend');
  await expect(legend).toContainText(' m');
  expect(Number(await legend.getAttribute('data-near'))).toBeGreaterThan(0);
  expect(Number(await legend.getAttribute('data-far'))).toBeGreaterThan(Number(await legend.getAttribute('data-near')));

  // Another camera of the scene, picked by name.
  await page.getByTestId('camera-picker').selectOption('wrist');
  await expect(panel).toHaveAttribute('data-camera', 'wrist');
  await expect(panel).toHaveAttribute('data-pending', '0');
  expect((await canvasPixels(page, 'camera-rgb')).foreground).toBeGreaterThan(0);
  await page.getByTestId('camera-picker').selectOption('front');
  await expect(panel).toHaveAttribute('data-camera', 'front');

  // The point view draws the depth cloud the policy saw, as for a surface point cloud.
  await expect(page.getByTestId('chain-paths')).toHaveAttribute('data-pending', '0', { timeout: 120_000 });
  const overlay = page.getByTestId('point-cloud-overlay');
  await expect(overlay).toHaveAttribute('data-points', String(NUM_POINTS));
  await expect(overlay).toContainText(`${NUM_POINTS} points the policy sees`);
  const cloud = (await exposedCloud(page))!;
  expect(cloud.points).toHaveLength(NUM_POINTS * 3);
  expect(cloud.points.every((value) => Number.isFinite(value) && Math.abs(value) < 2)).toBe(true);
  // Cropped to the workspace above the table (z ≥ 5 mm, the crop's floor), and drawn from what the camera sees, not
  // padding: the points spread in height over the arm and the cube.
  const heights = Array.from({ length: NUM_POINTS }, (_, point) => cloud.points[point * 3 + 2]);
  expect(Math.min(...heights)).toBeGreaterThanOrEqual(0.005);
  expect(Math.max(...heights) - Math.min(...heights)).toBeGreaterThan(0.05);

  await page.getByTestId('chain-paths').screenshot({ path: testInfo.outputPath('journey14-depth-cloud.png') });
  await panel.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('journey14-inspect.png') });
});
