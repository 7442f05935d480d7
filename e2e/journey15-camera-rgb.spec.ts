import { expect, test, type Page } from '@playwright/test';
import { exportOnnxChecked, openStudio, tinyHash } from './studio';
import { canvasPixels } from './camera-canvas';

/**
 * Tiny sizes for an image policy under SwiftShader (as src/core/run/camera-image-run.test.ts sizes it): 24×24 front
 * images, a two-layer CNN, a two-level UNet1D, one iteration of 2 envs and one evaluation whose first episode is
 * recorded and rendered to a video.
 */
const IMAGE_SIZE = 24;
const TINY_IMAGES = [
  'env.obs_type=rgb', `env.image_size=${IMAGE_SIZE}`, 'policy.cnn_channels=4,8', 'policy.image_features=16',
  'policy.unet_dims=8,16', 'policy.unet_groups=4', 'policy.unet_kernel=3',
  'num_envs=2', 'iterations=1', 'env.workers=1', 'env.steps_per_iteration=8', 'ppo.minibatch_size=8', 'env.max_episode_steps=20',
  'eval_episodes=2', 'eval.every=1', 'eval.record_episodes=1', 'video.every=0', 'video.episodes=1',
];

/** The last chains the chain view drew, as the e2e build exposes them. */
function exposedChains(page: Page): Promise<{ count: number; chains: number[]; cameraImages?: string; episode?: { step: number } } | undefined> {
  return page.evaluate(() => (window as unknown as { __flowtuneChains?: { count: number; chains: number[]; cameraImages?: string; episode?: { step: number } } }).__flowtuneChains);
}

/** Waits until the chain view has drawn from `label` without an error, and checks which camera images it was conditioned on. */
async function chainsDrawn(page: Page, label: string | RegExp, images: 'decision' | 'recorded-pose'): Promise<void> {
  const view = page.getByTestId('chain-view');
  await expect(page.getByTestId('chain-source-label')).toHaveText(label, { timeout: 120_000 });
  await expect(view).toHaveAttribute('data-pending', '0');
  await expect(page.getByTestId('chain-error')).toHaveCount(0);
  await expect(page.getByTestId('chain-camera-images')).toHaveAttribute('data-images', images);
  await expect(page.getByTestId('chain-charts').locator('figure')).toHaveCount(4);
  const drawn = (await exposedChains(page))!;
  expect(drawn.cameraImages).toBe(images);
  expect(drawn.count).toBe(16);
  expect(drawn.chains.every(Number.isFinite)).toBe(true);
}

test('journey 15: pick-cube from its front camera trains a tiny UNet1D for one iteration; the chain views, Inspect\'s camera and a video work on images', async ({ page }, testInfo) => {
  test.setTimeout(300_000);
  await openStudio(page, { backend: 'wasm' });
  const picker = page.getByTestId('task');
  // Offered because pick-cube's scene names cameras; no checkpoint ships for it, so Train builds a fresh image policy.
  await expect(picker.locator('option[value="pick-cube:rgb"]')).toHaveText('pick-cube · camera rgb');
  await picker.selectOption('pick-cube:rgb');
  await expect(page.getByTestId('model-fresh')).toContainText('no shipped checkpoint for pick-cube (camera rgb): checkpoints/pick-cube-rgb-bc.flowtune is missing');
  // The picker made the config fit images (one frame per decision) and kept the net: the CNN feeds the tiny preset's MLP.
  await expect(page.getByTestId('model-fresh-architecture')).toHaveText('rgb 64×64 from the first camera, CNN [16, 32, 32] → 64 · MLP [32, 32] · H 4 · K 4');
  await expect(page.getByTestId('config-notice')).toHaveCount(0);
  await page.getByTestId('checkpoint-panel').screenshot({ path: testInfo.outputPath('journey15-picker-model.png') });
  await page.screenshot({ path: testInfo.outputPath('journey15-picker.png') });

  // The tiny sizes arrive as a shared link does, in the URL hash.
  await page.evaluate((hash) => { window.location.hash = hash; }, tinyHash(TINY_IMAGES));
  await expect(page).toHaveURL(/env\.image_size=24/);
  await expect(picker).toHaveValue('pick-cube:rgb');

  // The researcher picks seed 003's velocity net in the Config tab.
  await page.getByTestId('tab-config').click();
  const policyGroup = page.getByTestId('config-panel').locator('details.config-group').filter({ has: page.locator('summary', { hasText: /^Policy$/ }) });
  if (!(await policyGroup.evaluate((element) => (element as HTMLDetailsElement).open))) await policyGroup.locator('summary').click();
  await page.getByTestId('config-policy-velocity_net').selectOption('unet1d');
  await expect(page.getByTestId('config-policy-velocity_net')).toHaveValue('unet1d');
  await expect(page.getByTestId('config-notice')).toHaveCount(0);
  await expect(page).toHaveURL(/policy\.velocity_net=unet1d/);
  await expect(page.getByTestId('model-fresh-architecture')).toHaveText(`rgb ${IMAGE_SIZE}×${IMAGE_SIZE} from the first camera, CNN [4, 8] → 16 · UNet1D [8, 16], kernel 3 · H 4 · K 4`);

  // Before any run, the chain view samples the fresh policy on a seeded reset, with that reset's images.
  await page.getByTestId('tab-inspect').click();
  await chainsDrawn(page, 'env 0, seeded reset (no rollout yet)', 'decision');
  await expect(page.getByTestId('camera-source')).toHaveText(`pick-cube after reset (seed 0) · ${IMAGE_SIZE}×${IMAGE_SIZE}`);
  await expect(page.getByTestId('camera-policy-note')).toHaveText(`The policy sees the front camera as a ${IMAGE_SIZE}×${IMAGE_SIZE} rgb image, rendered the same way as here.`);

  await page.getByTestId('train').click();
  await expect(page.getByTestId('phase')).toHaveText('done', { timeout: 240_000 });
  await expect(page.getByTestId('run-error')).toHaveCount(0);
  await expect(page.getByTestId('status-iteration')).toHaveText('1');
  await expect(page).toHaveURL(/env\.obs_type=rgb/);

  // The run's policy, on the live rollout's observation and images.
  await chainsDrawn(page, 'env 0, live rollout', 'decision');
  await expect(page.getByTestId('chain-paths')).toHaveAttribute('data-pending', '0', { timeout: 120_000 });
  await expect(page.getByTestId('chain-paths-error')).toHaveCount(0);
  await expect(page.getByTestId('chain-paths')).toHaveAttribute('data-chains', '16');

  // An evaluation episode in the replay: the camera shows the frame, in the policy's own size.
  const firstEval = page.locator('[data-testid="gallery-row"][data-source="eval"]').first();
  const episodeId = (await firstEval.getAttribute('data-episode-id'))!;
  await expect(firstEval.locator('td[data-obs-type="rgb"]')).toContainText('rgb');
  await firstEval.click();
  await expect(page.getByTestId('replay-view')).toHaveAttribute('data-loading', '0');
  await expect(page.getByTestId('replay-view')).toHaveAttribute('data-episode', episodeId);
  await page.getByTestId('replay-scrub').fill('3');
  const panel = page.getByTestId('camera-panel');
  await expect(page.getByTestId('camera-source')).toHaveText(`episode ${episodeId}, step 3 · ${IMAGE_SIZE}×${IMAGE_SIZE}`);
  await expect(panel).toHaveAttribute('data-pending', '0');
  await expect(page.getByTestId('camera-error')).toHaveCount(0);
  const rgb = await canvasPixels(page, 'camera-rgb');
  expect(rgb.width).toBe(IMAGE_SIZE);
  // The front camera sees the table, the arm and the cube: most pixels are not background, in many colours.
  expect(rgb.foreground).toBeGreaterThan(rgb.pixels / 2);
  expect(rgb.distinct).toBeGreaterThan(20);

  // Chains at this step: the step's images are ray-cast again from its recorded pose.
  await page.getByTestId('replay-chains').click();
  await chainsDrawn(page, `episode ${episodeId}, step 3`, 'recorded-pose');
  expect((await exposedChains(page))!.episode?.step).toBe(3);
  await expect(page.getByTestId('chain-paths-source')).toHaveText(`episode ${episodeId}, step 3`, { timeout: 120_000 });
  await expect(page.getByTestId('chain-paths-error')).toHaveCount(0);

  // The evaluation's first episode became a video.
  const video = page.getByTestId('video');
  await expect(video).toHaveCount(1, { timeout: 120_000 });
  expect(Number(await video.getAttribute('data-frames'))).toBe(Number(await video.getAttribute('data-length')) + 1);

  // A flow policy's ONNX graph takes the camera images as an input: the page runs it in onnxruntime-web on env 0's images and agrees with the policy.
  const onnx = await exportOnnxChecked(page);
  expect(onnx.text).toMatch(/^onnxruntime-web matches the live policy/);
  expect(onnx.maxAbsDifference).toBeLessThan(1e-4);

  await panel.scrollIntoViewIfNeeded();
  await panel.screenshot({ path: testInfo.outputPath('journey15-camera-panel.png') });
  await page.screenshot({ path: testInfo.outputPath('journey15-inspect-camera.png') });
  await page.getByTestId('chain-view').scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('journey15-inspect-chains.png') });
});
