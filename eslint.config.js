import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const nodeBuiltins = ['node:*', 'fs', 'path', 'os', 'crypto', 'child_process', 'http', 'net'];
const moduleBoundary =
  'Import another module only through its index.ts (re-export what you need there); see docs/new-module.md.';
/** The server and shared never import the desktop app. */
const serverNeverDesktop = {
  group: ['**/desktop/**', 'electron'],
  message: 'The server never imports the desktop app.',
};
const restrict = (patterns, message) => ({
  'no-restricted-imports': ['error', { patterns: [{ group: patterns, message }] }],
});

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/.data/**',
      'desktop/e2e/screenshots/**',
      'coverage/**',
      'release/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    // Tests read loosely typed JSON answers; `any` there keeps assertions readable.
    files: ['**/test/**/*.ts', '**/*.test.ts', '**/*.test.tsx', '**/e2e/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // shared runs anywhere: no Node, no DOM, no Electron, no app code.
    files: ['shared/src/**/*.ts'],
    languageOptions: { globals: {} },
    rules: restrict(
      [
        ...nodeBuiltins,
        'electron',
        '@atende/server*',
        '@atende/desktop*',
        '../../server/*',
        '../../desktop/*',
      ],
      'shared/ runs anywhere: it may not import Node, Electron, the server or the desktop app.',
    ),
  },
  {
    files: ['desktop/src/renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: restrict(
      [
        ...nodeBuiltins,
        'electron',
        'better-sqlite3',
        '**/main/**',
        '!**/main/core/**',
        '**/preload/**',
      ],
      'The renderer talks to the platform only through its typed client interface (main/core is pure and shared).',
    ),
  },
  {
    files: ['desktop/src/main/core/**/*.ts'],
    rules: restrict(
      [...nodeBuiltins, 'electron', 'better-sqlite3', '**/renderer/**'],
      'main/core is pure: store, transport and clock are injected.',
    ),
  },
  {
    // Only the Electron glue touches Electron; the rest of main runs (and is tested) under Node.
    files: ['desktop/src/main/**/*.ts'],
    ignores: ['desktop/src/main/app.ts', 'desktop/src/main/core/**'],
    rules: restrict(['electron', '**/renderer/**'], 'Only main/app.ts imports Electron.'),
  },
  {
    files: ['desktop/src/preload/**/*.ts'],
    rules: restrict(
      ['**/renderer/**', '**/main/**', 'better-sqlite3'],
      'preload only bridges IPC.',
    ),
  },
  {
    files: ['server/src/**/*.ts'],
    rules: restrict(['**/desktop/**', 'electron'], 'The server never imports the desktop app.'),
  },
  // A module is used only through its index.ts (its manifest and what it offers others). Tests may
  // reach inside (they are exempt); source may not.
  {
    files: ['server/src/**/*.ts'],
    ignores: ['**/*.test.ts', 'server/src/modules/*/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            serverNeverDesktop,
            { group: ['**/modules/*/*', '!**/modules/*/index.js'], message: moduleBoundary },
          ],
        },
      ],
    },
  },
  {
    files: ['server/src/modules/*/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            serverNeverDesktop,
            {
              group: [
                '../*/*',
                '!../*/index.js',
                '!../../**',
                '**/modules/*/*',
                '!**/modules/*/index.js',
              ],
              message: moduleBoundary,
            },
          ],
        },
      ],
    },
  },
);
