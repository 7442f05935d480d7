// Every test process knows the built-in tasks, as every host registers them at start (DESIGN.md §13).
import { registerBuiltInTasks } from './src/tasks';

registerBuiltInTasks();
