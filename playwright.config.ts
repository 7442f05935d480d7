import { defineConfig } from '@playwright/test';

// DESIGN.md §8: Debian's Chromium, WebGPU through SwiftShader, no background network traffic.
const chromiumFlags = [
  '--enable-unsafe-webgpu',
  '--use-webgpu-adapter=swiftshader',
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];

const port = Number(process.env.E2E_PORT ?? 4173);
// The e2e build runs in mode 'e2e': a non-production build whose fault-injection hooks answer ?faults=1.
// It goes to its own folder so it never replaces the production build in dist/; a run on another
// E2E_PORT gets its own build and artifact folders, so two runs on one machine do not collide.
const folderSuffix = process.env.E2E_PORT ? `-${port}` : '';
const e2eBuild = `test-results/e2e-build${folderSuffix}`;

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  timeout: 180_000,
  expect: { timeout: 60_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  outputDir: `test-results/e2e-artifacts${folderSuffix}`,
  globalSetup: './e2e/global-setup.ts',
  use: {
    baseURL: `http://localhost:${port}`,
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1280, height: 720 },
    launchOptions: { executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', args: chromiumFlags },
    trace: 'off',
  },
  webServer: {
    command: `npx vite build --mode e2e --outDir ${e2eBuild} --emptyOutDir --logLevel warn && npx vite preview --outDir ${e2eBuild} --port ${port} --strictPort`,
    url: `http://localhost:${port}`,
    reuseExistingServer: false,
    timeout: 180_000,
  },
});
