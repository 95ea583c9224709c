/**
 * Before the end-to-end tests: the server's template database (as its own tests use) and a
 * fresh web build for the server to serve. Without Debian's Chromium nothing is prepared.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import serverSetup from '../../server/test/global-setup.js';
import { CHROMIUM_PATH } from './browser.js';

const desktopDir = fileURLToPath(new URL('..', import.meta.url));

export default async function setup(project: TestProject) {
  if (!existsSync(CHROMIUM_PATH)) return undefined;
  execFileSync(process.execPath, [`${desktopDir}node_modules/vite/bin/vite.js`, 'build'], {
    cwd: desktopDir,
    // vitest sets NODE_ENV=test, which would make Vite build the dev flavour (/__api proxy).
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return serverSetup(project);
}
