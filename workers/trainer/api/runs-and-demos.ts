/** RunsApi and RecipeApi: the Runs tab's archive and queue, and the demos flow. */
import * as Comlink from 'comlink';
import { importFolders } from '../../../src/core/studio/folder-import';
import type { RecipeApi, RunsApi } from '../../../src/protocol/trainer-api';
import { runArchive } from '../indexeddb-stores';
import type { TrainerParts } from '../trainer-parts';

export function runsApi(parts: TrainerParts): RunsApi {
  return {
    listRuns: () => parts.session.listings.all(),
    runDetails: (ids) => runArchive.details(ids, parts.session.currentRunId),
    async deleteRun(id) {
      await runArchive.forgetRuns([id], parts.session.currentRunId);
      await parts.session.listings.announce();
      // Deleting the run the banner offers withdraws the offer.
      await parts.session.offers.announce();
    },
    listSweeps: () => runArchive.sweeps(),
    async deleteSweep(id) {
      await runArchive.forgetSweep(id);
      await parts.session.listings.announce();
    },
    async importFolder(files) {
      const result = await importFolders(runArchive, files);
      await parts.session.listings.announce();
      return result;
    },
    startQueue: (request) => parts.queue.start(request),
    cancelQueue: () => parts.queue.cancel(),
    queueStatus: () => parts.queue.status(),
    resumeQueue: async () => {
      await parts.tasksReady();
      return parts.queue.resume();
    },
  };
}

export function recipeApi(parts: TrainerParts): RecipeApi {
  const withTf = <T>(work: () => Promise<T>) => parts.withTf(work);
  return {
    recordDemos: (request) => parts.recipe.recordDemos(request),
    loadDemos: async (file) => parts.recipe.loadDemos(file),
    importDataset: (drop) => parts.recipe.importDataset(drop),
    async exportDemos() {
      const file = parts.recipe.exportDemos();
      return Comlink.transfer(file, [file.bytes.buffer as ArrayBuffer]);
    },
    startPretrain: (request) => withTf(() => parts.recipe.startPretrain(request)),
    startOffline: (request) => withTf(() => parts.recipe.startOffline(request)),
    pauseRecipe: () => parts.recipe.pauseRecipe(),
    resumeRecipe: () => withTf(() => parts.recipe.resumeRecipe()),
    discardRecipe: () => parts.recipe.discardRecipe(),
    // Not transferred: the stage keeps its finished file for later exports.
    exportRecipePolicy: () => parts.recipe.exportRecipePolicy(),
    recipeStatus: async () => parts.recipe.status(),
  };
}
