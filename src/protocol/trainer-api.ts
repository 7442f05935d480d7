/**
 * The trainer worker's comlink surface (DESIGN.md §2: the UI talks to workers through these types),
 * listed once as the concerns it serves; each lives in its own file. Types only.
 */
import type { ExportApi } from './export-api';
import type { InspectionApi } from './inspection-api';
import type { RecipeApi } from './recipe-api';
import type { RunControlApi } from './run-control-api';
import type { RunsApi } from './runs-api';
import type { TasksApi } from './tasks-api';

export type * from './export-api';
export type * from './inspection-api';
export type * from './recipe-api';
export type * from './run-control-api';
export type * from './runs-api';
export type * from './tasks-api';

export interface TrainerWorkerApi extends RunControlApi, TasksApi, InspectionApi, RunsApi, RecipeApi, ExportApi {}
