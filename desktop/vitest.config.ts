import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  resolve: {
    alias: {
      '@atende/shared': here('../shared/src/index.ts'),
      // Importing the real package under plain Node tries to download Electron.
      electron: here('./test/electron-stub.ts'),
    },
  },
  test: {
    // Vitest's default is one worker per core minus one: a single worker on the 2-core CI machine,
    // where the e2e files (mostly waiting on their server and Chromium) then ran one by one.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          // The Electron main process has its own config (vitest.main.config.ts).
          include: ['src/renderer/**/*.test.ts', 'test/**/*.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'dom',
          environment: 'jsdom',
          // Pages are lazy chunks and lists load after 500 ms: a cold run takes a few seconds.
          testTimeout: 20_000,
          include: ['src/renderer/**/*.test.tsx', 'test/**/*.test.tsx'],
          setupFiles: [here('./test/setup-dom.ts')],
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          environment: 'node',
          // Chromium against a real server with the simulator; the web build is made first.
          include: ['e2e/**/*.e2e.test.ts'],
          globalSetup: [here('./e2e/global-setup.ts')],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks',
        },
      },
    ],
  },
});
