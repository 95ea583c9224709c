import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * The Electron main side under plain Node: cache, sync engine, outbox, IPC, security. `electron`
 * is aliased to a stub (the real package tries to download a binary); the tests that need a real
 * server run as their own project with the server's database setup.
 */
export default defineConfig({
  resolve: {
    alias: {
      '@atende/shared': here('../shared/src/index.ts'),
      electron: here('./test/electron-stub.ts'),
    },
  },
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'main',
          environment: 'node',
          include: ['test-main/**/*.test.ts'],
          exclude: ['test-main/server/**'],
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'main-server',
          environment: 'node',
          include: ['test-main/server/**/*.test.ts'],
          globalSetup: [here('../server/test/global-setup.ts')],
          pool: 'forks',
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
