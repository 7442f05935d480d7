/**
 * The page knows the built-in tasks by name before anything else runs (the default config names the
 * default task); the trainer worker tells it which tasks exist beyond them and what each offers.
 */
import { registerBuiltInTasks } from '../tasks';

registerBuiltInTasks();
