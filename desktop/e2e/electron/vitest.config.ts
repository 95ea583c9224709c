import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** The Electron smoke test (run through run.mjs, which checks ELECTRON_PATH first). */
export default defineConfig({
  resolve: { alias: { '@atende/shared': here('../../../shared/src/index.ts') } },
  test: {
    include: [here('./*.e2e.ts')],
    globalSetup: [here('../../../server/test/global-setup.ts')],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
