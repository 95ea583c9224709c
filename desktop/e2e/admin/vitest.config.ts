import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * The admin end-to-end run: a real server (api + worker, simulator on) started in-process on a
 * fresh database from the server's template, the web build in Debian Chromium.
 * Run: npm run build -w desktop && npx vitest run -c desktop/e2e/admin/vitest.config.ts
 */
export default defineConfig({
  resolve: { alias: { '@atende/shared': here('../../../shared/src/index.ts') } },
  test: {
    root: here('.'),
    include: ['**/*.e2e.ts'],
    globalSetup: [here('../../../server/test/global-setup.ts')],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
