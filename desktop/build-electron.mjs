// Bundles the Electron main process and the preload script (the renderer is Vite's job).
// The sandboxed preload may only require 'electron', so it is bundled whole; native and
// binary-carrying modules stay external in main and ship unpacked (electron-builder.yml).
import { copyFileSync, mkdirSync } from 'node:fs';
import { build } from 'esbuild';

const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node22',
  sourcemap: true,
  logLevel: 'warning',
};

await build({
  ...common,
  entryPoints: ['src/main/app.ts'],
  outfile: 'dist/main/main.cjs',
  external: ['electron', 'better-sqlite3', 'node-notifier', 'bufferutil', 'utf-8-validate'],
});
await build({
  ...common,
  entryPoints: ['src/preload/index.ts'],
  outfile: 'dist/preload/preload.cjs',
  external: ['electron'],
});
mkdirSync('dist/main', { recursive: true });
copyFileSync('src/main/assets/tray.png', 'dist/main/tray.png');
