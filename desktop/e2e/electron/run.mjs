// Runs the Electron smoke test where an Electron binary is available (ELECTRON_PATH), and says
// why it does not run otherwise: the binary is a network download this machine may not have.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const electron = process.env.ELECTRON_PATH;
if (!electron || !existsSync(electron)) {
  console.warn(
    electron
      ? `Electron smoke test not run: ELECTRON_PATH=${electron} does not exist.`
      : 'Electron smoke test not run: set ELECTRON_PATH to an Electron 38 binary ' +
          '(npm install downloads one where the network allows; this machine skips the download).',
  );
  process.exit(0);
}
const desktop = fileURLToPath(new URL('../..', import.meta.url));
const vitest = fileURLToPath(new URL('../../../node_modules/vitest/vitest.mjs', import.meta.url));
const run = (args) =>
  spawnSync(process.execPath, args, { cwd: desktop, stdio: 'inherit' }).status ?? 1;
let status = run(['node_modules/vite/bin/vite.js', 'build']);
if (status === 0) status = run(['build-electron.mjs']);
if (status === 0) status = run([vitest, 'run', '-c', 'e2e/electron/vitest.config.ts']);
process.exit(status);
