import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { openStudio, parseCount } from './studio';

/** DESIGN.md §13: a task folder (task.js, scene XML) added in the studio, as the examples ship them. */
const EXAMPLES = path.resolve('examples/tasks');
const BROKEN_DIR = path.resolve('test-results/e2e-task-folders');
/** Gymnasium's hopper (reference data beside the project) and a module written against the contract in the tests. */
const HOPPER_XML = path.resolve('../shared/models/gymnasium/hopper.xml');
const HOPPER_MODULE = path.resolve('src/cli/fixtures/hopper-task/task.js');
/** One iteration with one evaluation episode, on the tiny preset. */
const OVERRIDES = ['iterations=1', 'eval.every=1', 'eval_episodes=1', 'video.every=0'];

/** A copy of an example folder, named `name`, with `edit` applied to one of its files. */
function brokenCopy(name: string, file: string, edit: (text: string) => string): string {
  const folder = path.join(BROKEN_DIR, name);
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(BROKEN_DIR, { recursive: true });
  cpSync(path.join(EXAMPLES, 'slide-to-target'), folder, { recursive: true });
  const target = path.join(folder, file);
  writeFileSync(target, edit(readFileSync(target, 'utf8')));
  return folder;
}

/** Chooses a folder through Add task…'s folder input, as the file chooser hands it over. */
async function addFolder(page: Page, folder: string): Promise<void> {
  await page.getByTestId('task-folder-input').setInputFiles(folder);
  await expect(page.getByTestId('task-control')).toHaveAttribute('data-busy', '0', { timeout: 60_000 });
}

/** What a refused folder must leave alone: the picker, the run's phase and iteration, and its metrics. */
async function studioState(page: Page) {
  return {
    task: await page.getByTestId('task').inputValue(),
    options: await page.getByTestId('task').locator('option').allTextContents(),
    phase: await page.getByTestId('phase').textContent(),
    iteration: await page.getByTestId('status-iteration').textContent(),
    records: await page.getByTestId('record-count').textContent(),
    model: await page.getByTestId('checkpoint-panel').locator('[data-testid="model-fresh"], [data-testid="checkpoint-meta"]').first().textContent(),
  };
}

test.describe('journey 10: a task of your own', () => {
  test('Add task… checks a folder, trains on it from a fresh policy and keeps it after a reload; a broken folder changes nothing', async ({ page }) => {
    test.setTimeout(420_000);
    await openStudio(page, { backend: 'wasm', overrides: OVERRIDES });
    const picker = page.getByTestId('task');
    await expect(picker.locator('option[value="pick-cube"]')).toHaveText('pick-cube');
    await expect(page.getByTestId('task-add')).toHaveText('Add task…');

    // The example folder is checked, listed among the added tasks, and becomes the next run's task.
    await addFolder(page, path.join(EXAMPLES, 'slide-to-target'));
    const notice = page.getByTestId('task-notice');
    await expect(notice).toHaveAttribute('data-kind', 'ok');
    await expect(notice).toContainText('slide-to-target is checked and added');
    await expect(picker.locator('optgroup[label="Added"] option[value="slide-to-target"]')).toHaveText('slide-to-target');
    await expect(picker).toHaveValue('slide-to-target');
    await expect(page.getByTestId('model-fresh')).toContainText('slide-to-target is a task you added: Train starts from a freshly initialized policy');

    // The Task control with its choices, drawn as a list so a screenshot shows them.
    await picker.evaluate((select: HTMLSelectElement) => { select.size = select.options.length + 2; });
    await page.getByTestId('task-control').screenshot({ path: 'test-results/journey10-task-control.png' });
    await picker.evaluate((select: HTMLSelectElement) => { select.size = 0; });

    // One iteration from a fresh policy, in env workers that import the task's module.
    await page.getByTestId('train').click();
    await expect(page.getByTestId('phase')).toHaveText('done', { timeout: 300_000 });
    await expect(page.getByTestId('status-iteration')).toHaveText('1');
    expect(parseCount(await page.getByTestId('status-env-steps').textContent())).toBeGreaterThan(0);
    await expect(page.getByTestId('record-count')).toHaveText('1 iterations logged');
    await expect(page.getByTestId('chart-charts-success_rate')).toBeVisible();

    // Its evaluation episode replays on the task's own scene, compiled from the folder's XML.
    await page.getByTestId('tab-inspect').click();
    await page.locator('[data-testid="gallery-row"][data-source="eval"]').first().click();
    await expect(page.getByTestId('replay-view')).toHaveAttribute('data-loading', '0', { timeout: 60_000 });
    await expect(page.getByTestId('replay-error')).toHaveCount(0);
    await expect(page.getByTestId('replay-caption')).toContainText('slide-to-target · iteration 1 · return');
    await page.screenshot({ path: 'test-results/journey10-replay.png' });
    await page.getByTestId('tab-charts').click();

    // A scene with an XML error: one sentence naming the module and the scene file; the run, model and metrics stay.
    const before = await studioState(page);
    await addFolder(page, brokenCopy('broken-scene', 'scene.xml', (xml) => xml.replace('</worldbody>', '</worldbdy>')));
    await expect(notice).toHaveAttribute('data-kind', 'error');
    await expect(notice).toContainText(/^broken-scene\/task\.js: its scene scene\.xml does not compile: .*XML.*Line number/);
    expect((await notice.textContent())!.split('\n')).toHaveLength(1);
    expect(await studioState(page)).toEqual(before);
    await page.screenshot({ path: 'test-results/journey10-broken-scene.png' });

    // After a reload the added task is listed again, and the URL's config still names it.
    await page.reload();
    await expect(page.getByTestId('backend')).toHaveText(/^(webgpu|wasm|cpu)$/);
    await expect(picker.locator('option[value="slide-to-target"]')).toHaveText('slide-to-target');
    await expect(picker).toHaveValue('slide-to-target');
    await expect(page.getByTestId('config-notice')).toHaveCount(0);
    await expect(page.getByTestId('model-fresh')).toContainText('slide-to-target is a task you added');

    // A module without step(): refused by the field it lacks; nothing changes.
    const reloaded = await studioState(page);
    await addFolder(page, brokenCopy('missing-step', 'task.js', (module) => module.replace(/^ {2}step\(view\) \{/m, '  stepp(view) {')));
    await expect(notice).toHaveAttribute('data-kind', 'error');
    await expect(notice).toHaveText(/^missing-step\/task\.js: step must be a function/);
    expect(await studioState(page)).toEqual(reloaded);

    // A task without a success rule: the charts show return where a success rate would read 0.
    await addFolder(page, path.join(EXAMPLES, 'pendulum-swingup'));
    await expect(picker).toHaveValue('pendulum-swingup');
    await expect(page.getByTestId('chart-eval-episode_return')).toBeVisible();
    await expect(page.getByTestId('chart-charts-success_rate')).toHaveCount(0);
    await expect(page.getByTestId('chart-eval-success_rate')).toHaveCount(0);

    // Removing an added task lists it no more, and the next run goes back to the default task.
    await page.getByTestId('task-remove').click();
    await expect(notice).toContainText('pendulum-swingup was removed from the added tasks');
    await expect(picker.locator('option[value="pendulum-swingup"]')).toHaveCount(0);
    await expect(picker).toHaveValue('pick-cube');
    await expect(page.getByTestId('chart-charts-success_rate')).toBeVisible();
  });
});

test.describe('journey 10: a task from outside the project', () => {
  test.skip(!existsSync(HOPPER_XML), 'needs ../shared/models/gymnasium/hopper.xml');
  test('a task not in the project, Gymnasium\'s hopper with a module written against the contract, trains and replays', async ({ page }) => {
    test.setTimeout(300_000);
    const folder = path.join(BROKEN_DIR, 'hopper');
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder, { recursive: true });
    cpSync(HOPPER_MODULE, path.join(folder, 'task.js'));
    cpSync(HOPPER_XML, path.join(folder, 'hopper.xml'));
    await openStudio(page, { backend: 'wasm', overrides: OVERRIDES });
    await addFolder(page, folder);
    await expect(page.getByTestId('task-notice')).toContainText('hopper-plugin is checked and added');
    await expect(page.getByTestId('task')).toHaveValue('hopper-plugin');
    await page.getByTestId('train').click();
    await expect(page.getByTestId('phase')).toHaveText('done', { timeout: 240_000 });
    await expect(page.getByTestId('chart-eval-episode_return')).toBeVisible();
    await page.getByTestId('tab-inspect').click();
    await page.locator('[data-testid="gallery-row"][data-source="train"]').first().click();
    await expect(page.getByTestId('replay-view')).toHaveAttribute('data-loading', '0', { timeout: 60_000 });
    await expect(page.getByTestId('replay-error')).toHaveCount(0);
    await expect(page.getByTestId('replay-caption')).toContainText('hopper-plugin · iteration 1 · return');
    await page.getByTestId('replay-view').screenshot({ path: 'test-results/journey10-hopper-replay.png' });
  });
});
