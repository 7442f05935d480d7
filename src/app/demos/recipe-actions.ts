/** The demos flow's calls to the trainer worker; a refusal becomes the flow's one-sentence notice. */
import * as Comlink from 'comlink';
import { download } from '../export/download';
import { useRecipeStore, type RecipeNoticePlace } from '../store/recipe-slice';
import { errorText, trainerClient } from '../workers/trainer-client';
import { chooseDroppedDemos, parseObsKeys, refusalText } from './demos-file';
import { parseOfflineForm, parsePretrainForm, parseRecordForm, type FormParse } from './recipe-form';

function refuse(place: RecipeNoticePlace, text: string): void {
  useRecipeStore.getState().setNotice({ kind: 'error', text, place });
}

/** Runs one call with the old notice cleared; a rejection's sentence becomes the notice at `place`. */
async function attempt(place: RecipeNoticePlace, call: () => Promise<unknown>): Promise<void> {
  useRecipeStore.getState().setNotice(undefined);
  try {
    await call();
  } catch (error) {
    refuse(place, errorText(error));
  }
}

/** The request, or undefined once the form's problem is shown at `place`. */
function checked<T>(place: RecipeNoticePlace, parse: FormParse<T>): T | undefined {
  if ('problem' in parse) {
    refuse(place, parse.problem);
    return undefined;
  }
  return parse.request;
}

/** Where a pause, resume or export belongs: the training stage in hand, else stage 1. */
function currentStagePlace(): RecipeNoticePlace {
  return useRecipeStore.getState().status?.stage === 'offline' ? 'offline' : 'pretrain';
}

/** The worker's status, for a tab opened before any recipe event arrived. */
export async function refreshRecipeStatus(): Promise<void> {
  try {
    useRecipeStore.getState().setStatus(await trainerClient().recipeStatus());
  } catch (error) {
    refuse('demos', errorText(error));
  }
}

/** Records expert episodes; resolves when the recording ends (progress comes as recipe events). */
export async function recordDemos(): Promise<void> {
  const request = checked('demos', parseRecordForm(useRecipeStore.getState().drafts.record));
  if (request) await attempt('demos', () => trainerClient().recordDemos(request));
}

/** What a dropped dataset needs besides its files: robomimic's obs keys (comma-separated) and filter key. */
export interface DatasetOptions {
  obsKeys: string;
  filter: string;
}

/**
 * Reads the dropped or chosen `.demos` file, or dataset (with its normalization.npz), and hands the
 * bytes to the worker, which converts a dataset for the selected task; a refused drop leaves the held demos as they were.
 */
export async function loadDemosFile(files: readonly File[], options: DatasetOptions = { obsKeys: '', filter: '' }): Promise<void> {
  const dropped = chooseDroppedDemos(files);
  if (typeof dropped === 'string') return refuse('demos', dropped);
  const chosen = dropped.kind === 'demos' ? [dropped.file] : dropped.files;
  useRecipeStore.getState().setNotice(undefined);
  try {
    const read = await Promise.all(chosen.map(async (file) => ({ name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) })));
    // The page keeps no copy, so the buffers move to the worker instead of being cloned.
    const buffers = read.map((file) => file.bytes.buffer as ArrayBuffer);
    if (dropped.kind === 'demos') {
      await trainerClient().loadDemos(Comlink.transfer(read[0], buffers));
    } else {
      const obsKeys = parseObsKeys(options.obsKeys);
      const filter = options.filter.trim();
      await trainerClient().importDataset(Comlink.transfer({ files: read, ...(obsKeys ? { obsKeys } : {}), ...(filter ? { filter } : {}) }, buffers));
    }
  } catch (error) {
    refuse('demos', refusalText(chosen.map((file) => file.name), errorText(error)));
  }
}

export async function exportDemos(): Promise<void> {
  await attempt('demos', async () => {
    const file = await trainerClient().exportDemos();
    download(file.name, file.bytes, 'application/octet-stream');
  });
}

/** Stage 1; resolves when it finishes, pauses or fails. */
export async function startPretrain(): Promise<void> {
  const request = checked('pretrain', parsePretrainForm(useRecipeStore.getState().drafts.pretrain));
  if (request) await attempt('pretrain', () => trainerClient().startPretrain(request));
}

/** Stage 2; resolves when it finishes, pauses or fails. */
export async function startOffline(): Promise<void> {
  const request = checked('offline', parseOfflineForm(useRecipeStore.getState().drafts.offline));
  if (request) await attempt('offline', () => trainerClient().startOffline(request));
}

/** Pauses a training stage, or cancels a recording after its current episodes. */
export async function pauseRecipe(): Promise<void> {
  const place = useRecipeStore.getState().status?.stage === 'record' ? 'demos' : currentStagePlace();
  await attempt(place, () => trainerClient().pauseRecipe());
}

export async function resumeRecipe(): Promise<void> {
  await attempt(currentStagePlace(), () => trainerClient().resumeRecipe());
}

export async function discardRecipe(): Promise<void> {
  await attempt(currentStagePlace(), () => trainerClient().discardRecipe());
}

export async function exportRecipePolicy(): Promise<void> {
  await attempt(currentStagePlace(), async () => {
    const file = await trainerClient().exportRecipePolicy();
    download(file.name, file.bytes, 'application/octet-stream');
  });
}
