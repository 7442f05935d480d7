import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

// Import boundaries of DESIGN.md §2. In flat config a later block's `no-restricted-imports`
// replaces an earlier one for the same file, so each file group lists all of its patterns.
const corePatterns = [
  { group: ['react', 'react-dom', 'react-dom/*', 'react/*'], message: 'src/core must not import React (DESIGN.md §2).' },
  { group: ['zustand', 'zustand/*'], message: 'src/core must not import zustand (DESIGN.md §2).' },
  { group: ['comlink'], message: 'src/core must not import comlink (DESIGN.md §2).' },
  { group: ['**/app/**', '**/workers/**'], message: 'src/core must not import the UI or workers (DESIGN.md §2).' },
  { regex: '(^|/)tasks(/|$)', message: 'src/core imports no task: tasks are plugins the hosts register (DESIGN.md §13).' },
];
const taskPatterns = [
  { regex: '(^|/)core/(?!envs/task-api$)', message: 'a task imports only core/envs/task-api (and src/tasks/kit), as a user\'s task would (DESIGN.md §13).' },
  { regex: '(^|/)(app|workers|cli|protocol)(/|$)', message: 'a task imports only core/envs/task-api (and src/tasks/kit) (DESIGN.md §13).' },
];
const checkpointPatterns = [
  { regex: '^(\\.\\./)+(core/)?(rl|run)(/|$)', message: 'src/core/checkpoint depends on policy/, never on rl/ or run/ (DESIGN.md §2).' },
];
const appPatterns = [
  { regex: '(^|/)core/(rl|run|flow)(/|$)', message: 'src/app never imports training code (core/rl, core/run, core/flow); talk to workers through src/protocol, and put pure helpers in core/config or core/metrics (DESIGN.md §2).' },
];
const workerPatterns = [
  { regex: '(^|/)src/app(/|$)', message: 'workers never import src/app; code the page and a worker share lives in src/core or a shared folder such as src/scene3d (DESIGN.md §2).' },
];
const workerCliPatterns = [
  { regex: '(^|/)src/cli(/|$)', message: 'workers never import src/cli: the CLI starts Node env threads, so a thread that imported it would close a circle; share code through src/core (DESIGN.md §2).' },
];
// DESIGN.md §16 "Thin workers": a worker wires core/studio's services to the browser; training
// code (rl, policy, flow, checkpoint, offline, gaussian, sweep) is reached through core/run or
// core/studio, never imported by a worker file directly.
const WORKER_CORE_FOLDERS = 'studio|run|envs|config|metrics|backend|video|render';
const WORKER_CORE_FILES = 'errors|random|content-hash';
const workerCorePatterns = [
  {
    regex: `(^|/)src/core/(?!(${WORKER_CORE_FOLDERS})(/|$)|(${WORKER_CORE_FILES})$)`,
    message: `workers import only core/{${WORKER_CORE_FOLDERS.replaceAll('|', ',')},${WORKER_CORE_FILES.replaceAll('|', ',')}}: reach training code through core/run or core/studio (DESIGN.md §16).`,
  },
];
const sharedScenePatterns = [
  { regex: '(^|/)(app|workers)(/|$)', message: 'src/scene3d is shared by the page and the workers, so it imports neither (DESIGN.md §2).' },
];
const restrict = (...patterns) => ['error', { patterns: patterns.flat() }];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'runs/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node, ...globals.worker } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/app/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    files: ['src/app/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': restrict(appPatterns) },
  },
  {
    files: ['workers/**/*.ts'],
    rules: { 'no-restricted-imports': restrict(workerPatterns, workerCliPatterns, workerCorePatterns) },
  },
  {
    // The workers' unit tests run in Node, where the CLI's backend and MuJoCo loaders are the way in.
    files: ['workers/**/*.test.ts', 'workers/**/fixtures/**/*.ts'],
    rules: { 'no-restricted-imports': restrict(workerPatterns) },
  },
  {
    // DESIGN.md §2: src/protocol holds types only; defaults and helpers live in src/core (e.g. core/config).
    files: ['src/protocol/**/*.ts'],
    rules: {
      'no-restricted-syntax': ['error', ...[
        'Program > VariableDeclaration', 'Program > FunctionDeclaration', 'Program > ClassDeclaration', 'Program > TSEnumDeclaration',
        'ExportNamedDeclaration > VariableDeclaration', 'ExportNamedDeclaration > FunctionDeclaration', 'ExportNamedDeclaration > ClassDeclaration',
        'ExportNamedDeclaration > TSEnumDeclaration', 'ExportDefaultDeclaration', 'ExportAllDeclaration[exportKind="value"]',
        'ExportNamedDeclaration[exportKind="value"][source]', 'ImportDeclaration[importKind="value"]',
      ].map((selector) => ({ selector, message: 'src/protocol holds types only: put runtime values (defaults, helpers) in src/core, e.g. core/config (DESIGN.md §2).' }))],
    },
  },
  {
    // src/tasks/index.ts is the hosts' registration of the built-ins; tests drive tasks through core.
    files: ['src/tasks/**/*.ts'],
    ignores: ['src/tasks/index.ts', 'src/tasks/**/*.test.ts', 'src/tasks/**/fixtures/**'],
    rules: { 'no-restricted-imports': restrict(taskPatterns) },
  },
  {
    files: ['src/scene3d/**/*.ts'],
    rules: { 'no-restricted-imports': restrict(sharedScenePatterns) },
  },
  {
    // DESIGN.md §2: src/core is pure; it runs in Node, Vitest and workers.
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(corePatterns),
      // A worker's API is a protocol type: it lives in src/protocol, beside the others.
      'no-restricted-syntax': ['error', {
        selector: 'TSInterfaceDeclaration[id.name=/WorkerApi$/], TSTypeAliasDeclaration[id.name=/WorkerApi$/]',
        message: 'worker APIs are protocol types: declare them in src/protocol, not in src/core (DESIGN.md §2).',
      }],
      'no-restricted-globals': ['error',
        { name: 'window', message: 'src/core must not use the DOM (DESIGN.md §2).' },
        { name: 'document', message: 'src/core must not use the DOM (DESIGN.md §2).' },
        { name: 'navigator', message: 'src/core must not use the DOM (DESIGN.md §2).' },
        { name: 'localStorage', message: 'src/core must not use the DOM (DESIGN.md §2).' },
      ],
    },
  },
  {
    files: ['src/core/checkpoint/**/*.ts'],
    // Round-trip tests save and load what the trainer produces, so they may use rl/.
    ignores: ['src/core/checkpoint/**/*.test.ts'],
    rules: { 'no-restricted-imports': restrict(corePatterns, checkpointPatterns) },
  },
);
