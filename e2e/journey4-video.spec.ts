import { expect, test, type Locator, type Page } from '@playwright/test';
import type { MetricRecord } from '../src/core/metrics/metric-keys';
import { webmLayout } from '../src/core/video/webm-layout';
import { probeWebm } from '../src/app/videos/webm-probe';
import { openStudio, routeShippedCheckpoint, tinyHash } from './studio';

/** Two iterations with an evaluation at the second, whose two eval episodes get videos. */
const OVERRIDES = ['iterations=2', 'eval.every=2', 'eval_episodes=2', 'eval.record_episodes=2', 'video.every=0', 'video.episodes=2'];

interface VideoFacts { frames: number; fps: number; length: number; iteration: number; success: boolean; episodeReturn: number }

async function videoFacts(video: Locator): Promise<VideoFacts> {
  const read = async (name: string) => Number(await video.getAttribute(`data-${name}`));
  return {
    frames: await read('frames'), fps: await read('fps'), length: await read('length'), iteration: await read('iteration'),
    success: (await video.getAttribute('data-success')) === 'true', episodeReturn: await read('return'),
  };
}

/** Waits for the element's metadata and returns what the browser's own demuxer read. */
async function loadedMetadata(video: Locator): Promise<{ duration: number; width: number; height: number }> {
  return video.evaluate(async (element: HTMLVideoElement) => {
    if (element.readyState < HTMLMediaElement.HAVE_METADATA) {
      await new Promise((resolve, reject) => {
        element.addEventListener('loadedmetadata', resolve, { once: true });
        element.addEventListener('error', () => reject(new Error(`video error ${element.error?.code}`)), { once: true });
        element.load();
      });
    }
    return { duration: element.duration, width: element.videoWidth, height: element.videoHeight };
  });
}

/** Seeks and resolves with the time the element settled on. */
async function seekTo(video: Locator, seconds: number): Promise<number> {
  return video.evaluate(async (element: HTMLVideoElement, target: number) => {
    await new Promise((resolve) => { element.addEventListener('seeked', resolve, { once: true }); element.currentTime = target; });
    return element.currentTime;
  }, seconds);
}

async function fileBytes(page: Page, url: string): Promise<Uint8Array> {
  return new Uint8Array(await page.evaluate(async (href) => Array.from(new Uint8Array(await (await fetch(href)).arrayBuffer())), url));
}

/** Every check a recorded video must pass: metadata, frame count, duration, Cues, seeking, download name. */
async function checkVideo(page: Page, entryIndex: number): Promise<VideoFacts> {
  const video = page.getByTestId('video').nth(entryIndex);
  const facts = await videoFacts(video);
  // One frame per recorded qpos row: reset, then every control step.
  expect(facts.frames).toBe(facts.length + 1);
  expect(facts.fps).toBe(20);

  const metadata = await loadedMetadata(video);
  expect(metadata.duration).toBeGreaterThan(0);
  expect(Math.abs(metadata.duration * facts.fps - facts.frames)).toBeLessThanOrEqual(1);
  expect([metadata.width, metadata.height]).toEqual([640, 360]);

  const download = page.getByTestId('video-download').nth(entryIndex);
  const href = (await download.getAttribute('href'))!;
  const bytes = await fileBytes(page, href);
  const probe = await probeWebm(bytes);
  expect(probe.codec).toMatch(/^vp09/);
  expect(probe.frames).toBe(facts.frames);
  expect(probe.durationSeconds).toBeCloseTo(facts.frames / facts.fps, 2);
  probe.timestamps.forEach((timestamp, frameIndex) => expect(timestamp).toBeCloseTo(frameIndex / facts.fps, 2));
  const layout = webmLayout(bytes);
  expect(layout.hasCues).toBe(true);
  expect(layout.durationSeconds).toBeCloseTo(facts.frames / facts.fps, 2);

  const middle = metadata.duration / 2;
  expect(await seekTo(video, middle)).toBeCloseTo(middle, 1);
  expect(await download.getAttribute('download')).toMatch(new RegExp(`^flowtune-pick-cube-it${facts.iteration}-ep\\d+\\.webm$`));
  return facts;
}

/** Blocks the page's main thread for 40–120 ms every 170 ms, like a busy studio, for 15 s. */
function busyMainThread(): void {
  const timer = setInterval(() => {
    const until = performance.now() + 40 + Math.random() * 80;
    while (performance.now() < until);
  }, 170);
  setTimeout(() => clearInterval(timer), 15_000);
}

test.describe('journey 4: rollout videos', () => {
  test('an evaluation records captioned WebM videos of its eval episodes that load, seek and count one frame per step', async ({ page }) => {
    await openStudio(page, { backend: 'wasm', overrides: OVERRIDES });
    await page.getByTestId('tab-inspect').click();
    await expect(page.getByTestId('video-list')).toContainText('2 eval episodes at every evaluation');
    await page.getByTestId('train').click();
    await expect(page.getByTestId('video-entry')).toHaveCount(2, { timeout: 150_000 });
    await expect(page.getByTestId('video-pending')).toHaveCount(0);

    const first = await checkVideo(page, 0);
    const second = await checkVideo(page, 1);
    expect(first.iteration).toBe(2);
    expect(second.iteration).toBe(2);
    // Both eval episodes have videos, so their means are the evaluation's metrics at iteration 2.
    const records = await page.evaluate(() => (window as unknown as { __flowtuneMetrics: MetricRecord[] }).__flowtuneMetrics);
    const evaluation = records.find((record) => record['progress/iteration'] === 2)!;
    expect((first.length + second.length) / 2).toBeCloseTo(Number(evaluation['eval/episode_length']), 6);
    expect((Number(first.success) + Number(second.success)) / 2).toBeCloseTo(Number(evaluation['eval/success_rate']), 6);
    expect((first.episodeReturn + second.episodeReturn) / 2).toBeCloseTo(Number(evaluation['eval/episode_return']), 4);
    await expect(page.getByTestId('video-entry').first()).toContainText(/webcodecs/);
  });

  test('without WebCodecs the MediaRecorder fallback writes a retimed WebM with the same frame count', async ({ page }) => {
    await routeShippedCheckpoint(page);
    await page.goto(`/?backend=wasm&video_encoder=mediarecorder#${tinyHash(OVERRIDES.map((pair) => pair.replace('video.episodes=2', 'video.episodes=1')))}`);
    await expect(page.getByTestId('meta-task')).toHaveText('pick-cube');
    await page.getByTestId('tab-inspect').click();
    await page.getByTestId('train').click();
    // A busy page delays the replay's timers; every frame must still reach the file.
    await expect(page.getByTestId('video-pending')).toBeVisible({ timeout: 150_000 });
    await page.evaluate(busyMainThread);
    await expect(page.getByTestId('video-entry')).toHaveCount(1, { timeout: 150_000 });
    await checkVideo(page, 0);
    await expect(page.getByTestId('video-entry').first()).toContainText(/mediarecorder/);
  });
});
