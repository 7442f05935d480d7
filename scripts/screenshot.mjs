// Takes a screenshot of a studio page at 1280x720: node scripts/screenshot.mjs URL OUT.png [waitMs]
import { chromium } from '@playwright/test';
import { findChromium } from './find-chromium.mjs';

const [url, out, waitMs = '8000'] = process.argv.slice(2);
if (!url || !out) {
  console.error('usage: node scripts/screenshot.mjs URL OUT.png [waitMs]');
  process.exit(2);
}
const browser = await chromium.launch({
  executablePath: findChromium(),
  args: ['--enable-unsafe-webgpu', '--use-webgpu-adapter=swiftshader', '--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic', '--no-first-run'],
});
const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
await page.goto(url);
await page.waitForTimeout(Number(waitMs));
await page.screenshot({ path: out });
await browser.close();
