import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type PluginOption } from 'vite';
import { bundleBudget } from './bundle-budget';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** Files of the shared workspace's source (aliased below), on any platform's separators. */
const sharedSource = /[\\/]shared[\\/]src[\\/]/;

/** Where the dev server forwards API and socket calls (the server's default port). */
const devTarget = process.env.ATENDE_DEV_SERVER ?? 'http://localhost:8080';

export default defineConfig({
  root: here('./src/renderer'),
  // The server serves the web build at `/`; deep links such as /tickets/{uuid} need absolute assets.
  base: process.env.VITE_BASE ?? '/',
  envDir: here('.'),
  // plugin-react's types resolve the root vite (vitest's); the build runs desktop's own vite.
  plugins: [react() as unknown as PluginOption, bundleBudget()],
  resolve: { alias: { '@atende/shared': here('../shared/src/index.ts') } },
  build: {
    outDir: here('./dist/web'),
    emptyOutDir: true,
    chunkSizeWarningLimit: 600,
    reportCompressedSize: true,
    rollupOptions: {
      treeshake: {
        // shared/src only declares (schemas, constants, functions; no module runs anything for
        // its effect), so a module none of whose exports is used is left out. Without this the
        // barrel's zod calls count as effects and the whole route table (and libphonenumber's
        // metadata) lands in the entry.
        moduleSideEffects: (id) => !sharedSource.test(id),
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      // The client prefixes API calls with /__api in dev (platform/web.ts); production is same-origin.
      '/__api': {
        target: devTarget,
        changeOrigin: true,
        rewrite: (path) => path.replace(/^\/__api/, ''),
      },
      '/socket.io': { target: devTarget, ws: true, changeOrigin: true },
    },
  },
});
