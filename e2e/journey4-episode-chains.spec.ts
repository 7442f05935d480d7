import { expect, test, type Locator, type Page } from '@playwright/test';
import { openStudio } from './studio';

/** The last sample the chain view drew, as the e2e build exposes it. */
interface ExposedChains {
  count: number;
  obsSource: string;
  envIndex: number;
  episode?: { id: string; step: number };
  chains: number[];
}

function exposed(page: Page): Promise<ExposedChains | undefined> {
  return page.evaluate(() => (window as unknown as { __flowtuneChains?: ExposedChains }).__flowtuneChains);
}

async function frameShown(page: Page): Promise<number> {
  return Number((await page.getByTestId('replay-frame').textContent())?.split('/')[0]);
}

/** Scrubs the replay to `step`, presses "Chains at this step", and returns the chains drawn for it. */
async function chainsAtStep(page: Page, scrub: Locator, episodeId: string, step: number): Promise<ExposedChains> {
  await scrub.fill(String(step));
  await expect.poll(() => frameShown(page)).toBe(step);
  await page.getByTestId('replay-chains').click();
  await expect.poll(async () => (await exposed(page))?.episode?.step, { timeout: 60_000 }).toBe(step);
  await expect(page.getByTestId('chain-view')).toHaveAttribute('data-pending', '0');
  await expect(page.getByTestId('chain-source-label')).toHaveText(`episode ${episodeId}, step ${step}`);
  return (await exposed(page))!;
}

test.describe('journey 4: chains at a recorded episode step', () => {
  test('the chain view samples from the replayed frame: steps differ, the same step repeats exactly', async ({ page }) => {
    test.setTimeout(240_000);
    await openStudio(page, { backend: 'wasm', overrides: ['iterations=1', 'eval.every=1', 'eval_episodes=2'] });
    await page.getByTestId('train').click();
    await expect(page.getByTestId('phase')).toHaveText('done', { timeout: 180_000 });
    await page.getByTestId('tab-inspect').click();

    const firstEval = page.locator('[data-testid="gallery-row"][data-source="eval"]').first();
    const episodeId = (await firstEval.getAttribute('data-episode-id'))!;
    await firstEval.click();
    const view = page.getByTestId('replay-view');
    await expect(view).toHaveAttribute('data-episode', episodeId);
    await expect(view).toHaveAttribute('data-loading', '0');
    const lastFrame = Number((await page.getByTestId('replay-frame').textContent())!.split('/')[1]);
    expect(lastFrame).toBeGreaterThan(6);
    const scrub = page.getByTestId('replay-scrub');

    const early = await chainsAtStep(page, scrub, episodeId, 2);
    expect(early.obsSource).toBe('episode');
    expect(early.episode).toEqual({ id: episodeId, step: 2 });
    expect(early.count).toBe(16);
    expect(early.chains.length % 16).toBe(0);
    await expect(page.getByTestId('chain-view')).toHaveAttribute('data-source', 'episode');

    // Same seed, another observation: the chains move.
    const later = await chainsAtStep(page, scrub, episodeId, lastFrame);
    expect(later.count).toBe(16);
    expect(later.chains).not.toEqual(early.chains);
    // Back at the first step: exactly the first chains again.
    const again = await chainsAtStep(page, scrub, episodeId, 2);
    expect(again.chains).toEqual(early.chains);

    // Back to the live env: the view leaves the episode.
    await page.getByTestId('chain-source-live').click();
    await expect(page.getByTestId('chain-view')).toHaveAttribute('data-source', 'env');
    await expect.poll(async () => (await exposed(page))?.obsSource, { timeout: 60_000 }).not.toBe('episode');
    await expect(page.getByTestId('chain-source-label')).toHaveText(/^env 0, /);
  });
});
