// `npm start` builds first, but only when a source changed since the last successful build: a
// fingerprint of every source file's path, size and modification time is compared with the one
// stored after that build, and the outputs must still exist. `--force` always builds.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const STAMP = path.join(root, 'node_modules', '.cache', 'atende-build-stamp');
const SKIP = new Set(['node_modules', 'dist', 'release', 'coverage', 'test-results', '.data']);
const SOURCES = ['shared', 'server', 'desktop'];
const ROOT_FILES = ['package.json', 'package-lock.json', 'tsconfig.base.json'];
const OUTPUTS = ['shared/dist', 'server/dist/main.js', 'desktop/dist/web/index.html'];

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name) || entry.name.endsWith('.tsbuildinfo')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (entry.isFile()) yield full;
  }
}

export function fingerprint() {
  const hash = createHash('sha256');
  const all = [
    ...ROOT_FILES.map((f) => path.join(root, f)).filter((f) => existsSync(f)),
    ...SOURCES.flatMap((dir) => [...files(path.join(root, dir))]),
  ].sort();
  for (const file of all) {
    const { size, mtimeMs } = statSync(file);
    hash.update(`${path.relative(root, file)}\0${size}\0${mtimeMs}\n`);
  }
  return hash.digest('hex');
}

const force = process.argv.includes('--force');
const current = fingerprint();
const stored = existsSync(STAMP) ? readFileSync(STAMP, 'utf8').trim() : '';
const outputsThere = OUTPUTS.every((f) => existsSync(path.join(root, f)));
if (!force && stored === current && outputsThere) {
  console.warn('build: nothing changed since the last build, skipped (npm run build to force)');
  process.exit(0);
}
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const result = spawnSync(npm, ['run', 'build'], { cwd: root, stdio: 'inherit' });
if (result.status !== 0) process.exit(result.status ?? 1);
mkdirSync(path.dirname(STAMP), { recursive: true });
// Fingerprint again: the build itself may touch sources (it should not, but then we rebuild).
writeFileSync(STAMP, `${fingerprint()}\n`);
