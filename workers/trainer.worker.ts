/** The trainer worker: its parts (trainer/trainer-parts.ts) exposed over comlink, one protocol API per file in trainer/api/. */
import * as Comlink from 'comlink';
import type { TrainerWorkerApi } from '../src/protocol/trainer-api';
import { registerBuiltInTasks } from '../src/tasks';
import { inspectionApi } from './trainer/api/inspection';
import { runControlApi } from './trainer/api/run-control';
import { recipeApi, runsApi } from './trainer/api/runs-and-demos';
import { tasksApi } from './trainer/api/tasks';
import { TrainerParts } from './trainer/trainer-parts';

registerBuiltInTasks();

const parts = new TrainerParts();

const api: TrainerWorkerApi = {
  ...runControlApi(parts),
  ...tasksApi(parts),
  ...inspectionApi(parts),
  ...runsApi(parts),
  ...recipeApi(parts),
};

Comlink.expose(api);
