import { chromium } from '@playwright/test';
import { findChromium } from '../../scripts/find-chromium.mjs';
import { writeFileDurable } from './durable-write';

/** Renders a self-contained SVG to a PNG of the SVG's own size through headless Chromium. */
export async function renderSvgToPng(svg: string, pngPath: string): Promise<void> {
  const executablePath = findChromium();
  if (!executablePath) throw new Error(`rendering ${pngPath} needs Chromium (set CHROME_PATH)`);
  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] });
  try {
    const [, width, height] = /<svg[^>]* width="(\d+)" height="(\d+)"/.exec(svg) ?? [];
    const page = await browser.newPage({ viewport: { width: Number(width ?? 720), height: Number(height ?? 420) } });
    await page.setContent(`<html><body style="margin:0;background:#fff">${svg}</body></html>`);
    writeFileDurable(pngPath, await page.screenshot());
  } finally {
    await browser.close();
  }
}
