import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

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
    // DESIGN.md §2: src/core is pure; it runs in Node, Vitest and workers.
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: ['react', 'react-dom', 'react-dom/*', 'react/*'], message: 'src/core must not import React (DESIGN.md §2).' },
          { group: ['zustand', 'zustand/*'], message: 'src/core must not import zustand (DESIGN.md §2).' },
          { group: ['comlink'], message: 'src/core must not import comlink (DESIGN.md §2).' },
          { group: ['**/app/**', '**/workers/**'], message: 'src/core must not import the UI or workers (DESIGN.md §2).' },
        ],
      }],
      'no-restricted-globals': ['error',
        { name: 'window', message: 'src/core must not use the DOM (DESIGN.md §2).' },
        { name: 'document', message: 'src/core must not use the DOM (DESIGN.md §2).' },
        { name: 'navigator', message: 'src/core must not use the DOM (DESIGN.md §2).' },
        { name: 'localStorage', message: 'src/core must not use the DOM (DESIGN.md §2).' },
      ],
    },
  },
);
