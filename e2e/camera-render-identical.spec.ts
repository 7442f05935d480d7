import { execFileSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import type { CameraHashes } from '../src/app/inspect/camera-test-hook';
import { openStudio } from './studio';

// DESIGN.md §19: cameras are rendered by MuJoCo's own ray casting, so the same wasm gives the same
// bits everywhere. The same scene state (a task's seeded reset) is rendered in Node and in the
// studio's trainer worker in Chromium, and the rgb and depth bytes compared by their SHA-256.
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const FRAMES = [
  { task: 'pick-cube', camera: 'front', seed: 7, size: 64 },
  { task: 'pick-cube', camera: 'wrist', seed: 3, size: 48 },
] as const;

function nodeHashes(frame: (typeof FRAMES)[number]): CameraHashes {
  const stdout = execFileSync(npx, ['tsx', 'e2e/fixtures/camera-hashes.ts', frame.task, frame.camera, String(frame.seed), String(frame.size)], { encoding: 'utf8' });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as CameraHashes;
}

test('a camera frame rendered in a Web Worker in Chromium is bit-identical to Node\'s, rgb and depth', async ({ page }) => {
  await openStudio(page, { backend: 'wasm' });
  for (const frame of FRAMES) {
    const inNode = nodeHashes(frame);
    const inWorker = await page.evaluate((request) => (window as unknown as { __flowtuneCameraHashes: (asked: unknown) => Promise<CameraHashes> }).__flowtuneCameraHashes(request),
      { source: { kind: 'reset', task: frame.task, seed: frame.seed }, camera: frame.camera, imageSize: frame.size });
    expect(inNode).toMatchObject({ cameras: ['front', 'wrist'], camera: frame.camera, size: frame.size });
    expect(inWorker, `${frame.task} ${frame.camera} at seed ${frame.seed}`).toEqual(inNode);
  }
  // A scene without cameras lists none and renders nothing.
  const hopper = await page.evaluate((request) => (window as unknown as { __flowtuneCameraHashes: (asked: unknown) => Promise<CameraHashes> }).__flowtuneCameraHashes(request),
    { source: { kind: 'reset', task: 'hopper', seed: 0 } });
  expect(hopper).toEqual({ cameras: [] });
});
