import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'workers/**/*.test.ts', 'scripts/**/*.test.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Vitest's default (cores − 1) is one fork on two cores; the CLI and sweep tests spend much of their time waiting
    // on child processes, so a second fork uses the core they leave idle (unit stage 15.1 → 12.0 min on 2 cores).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    setupFiles: ['./vitest.setup.ts'],
  },
});
