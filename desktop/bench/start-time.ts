/**
 * `npm start` to `/health` ok (issue 14 item 5): a first start from a clean checkout's state (no
 * build outputs, no build stamp, an empty database: full build, migrations, seed) and restarts
 * with nothing changed (the build is skipped). Then one restart taken apart: the build check
 * alone, the server alone, and the server's imports alone. Writes its section of BENCHMARKS.md.
 *   npx tsx desktop/bench/start-time.ts [--no-write]      (BENCH_RESTARTS=3)
 */
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  childEnv,
  childrenCpuSeconds,
  createDatabase,
  freePort,
  groupCpuSeconds,
  load1,
  log,
  machine,
  repoRoot,
  startGroup,
  waitForHealth,
  writeSection,
} from './support.js';

const RESTARTS = Number(process.env.BENCH_RESTARTS ?? 3);
const TARGET_RESTART_S = 3;
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** What `npm start` rebuilds from: removing these (and the stamp) is a fresh checkout's state. */
const BUILD_STATE = [
  'node_modules/.cache/atende-build-stamp',
  'shared/dist',
  'shared/tsconfig.tsbuildinfo',
  'server/dist',
  'server/tsconfig.tsbuildinfo',
  'desktop/dist/web',
];

interface Timing {
  wallS: number;
  cpuS: number;
  load: string;
}

/** Starts a command's process group, times it to /health ok (wall and the group's CPU), stops it. */
async function timeToHealth(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  url: string,
): Promise<Timing> {
  const load = load1();
  const t0 = performance.now();
  const group = startGroup(command, args, { cwd: repoRoot, env });
  try {
    await waitForHealth(url, group.child);
  } catch (err) {
    await group.stop();
    throw err;
  }
  const wallS = (performance.now() - t0) / 1000;
  const cpuS = groupCpuSeconds(group.child.pid!);
  await group.stop();
  return { wallS, cpuS, load };
}

/** Runs a command to its end; wall and CPU seconds. */
function timeRun(command: string, args: string[], env: NodeJS.ProcessEnv): Timing {
  const load = load1();
  const cpu0 = childrenCpuSeconds();
  const t0 = performance.now();
  const run = spawnSync(command, args, { cwd: repoRoot, env, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`${command} ${args.join(' ')} failed:\n${run.stderr}`);
  return { wallS: (performance.now() - t0) / 1000, cpuS: childrenCpuSeconds() - cpu0, load };
}

const s = (v: number) => v.toFixed(2);
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main() {
  const started = new Date().toISOString();
  const db = await createDatabase('start');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = childEnv({
    DATABASE_URL: db.url,
    PORT: String(port),
    HOST: '127.0.0.1',
    REDIS_PREFIX: `bench-start-${Date.now()}`,
    LOG_LEVEL: 'warn',
    ADMIN_PASSWORD: 'bench-start-time',
  });
  try {
    for (const item of BUILD_STATE)
      rmSync(path.join(repoRoot, item), { recursive: true, force: true });
    log('first start: full build, migrations, seed');
    const first = await timeToHealth(npm, ['start'], env, url);
    log(`first start ${s(first.wallS)} s`);
    const restarts: Timing[] = [];
    for (let i = 0; i < RESTARTS; i++) {
      const restart = await timeToHealth(npm, ['start'], env, url);
      log(`restart ${s(restart.wallS)} s`);
      restarts.push(restart);
    }
    const check = timeRun(process.execPath, ['build/build-if-changed.mjs'], env);
    const server = await timeToHealth(process.execPath, ['server/dist/main.js'], env, url);
    const imports = timeRun(
      process.execPath,
      ['--input-type=module', '-e', "await import('./server/dist/server.js'); process.exit(0);"],
      env,
    );
    const restartWall = median(restarts.map((r) => r.wallS));
    const restartCpu = median(restarts.map((r) => r.cpuS));
    const met = restartWall <= TARGET_RESTART_S;
    const md = [
      '## `npm start` to `/health` ok (issue 14 item 5)',
      '',
      `Date: ${started}. Machine: ${machine()}; Postgres and Redis on the same machine (a fresh database).`,
      'Command: `npx tsx desktop/bench/start-time.ts` (part of `npm run bench -w desktop`). Each run is `npm start` at the root',
      '(`node build/build-if-changed.mjs && node server/dist/main.js`, ROLE=all) from spawn to the first `GET /health` 200 (polled every',
      '50 ms), then SIGTERM. CPU is user + system of the whole process group (npm, sh, the build check, node) from spawn to /health ok. The first start',
      `begins without build outputs, build stamp or schema (${BUILD_STATE.map((f) => `\`${f}\``).join(', ')} removed): it builds`,
      'shared, server and the web app, then migrates and seeds. A restart changes nothing, so the build is skipped.',
      '',
      '| run | wall to /health ok | CPU s | load (1 min) at start |',
      '|---|---|---|---|',
      `| first start (build + migrations + seed) | ${s(first.wallS)} s | ${s(first.cpuS)} | ${first.load} |`,
      ...restarts.map(
        (r, i) =>
          `| restart ${i + 1}, nothing changed | ${s(r.wallS)} s | ${s(r.cpuS)} | ${r.load} |`,
      ),
      '',
      'One restart taken apart (each run on its own):',
      '',
      '| part | wall s | CPU s |',
      '|---|---|---|',
      `| \`node build/build-if-changed.mjs\` (fingerprint, skip) | ${s(check.wallS)} | ${s(check.cpuS)} |`,
      `| \`node server/dist/main.js\` to /health ok | ${s(server.wallS)} | ${s(server.cpuS)} |`,
      `| of which importing \`server/dist/server.js\` (no start) | ${s(imports.wallS)} | ${s(imports.cpuS)} |`,
      `| npm itself (restart median − the two above) | ${s(Math.max(0, restartWall - check.wallS - server.wallS))} | ${s(Math.max(0, restartCpu - check.cpuS - server.cpuS))} |`,
      '',
      `Restart (median of ${RESTARTS}) ${s(restartWall)} s, target ≤${TARGET_RESTART_S} s: **${met ? 'met' : 'not met'}**.`,
    ].join('\n');
    if (!process.argv.includes('--no-write')) writeSection('start-time', md);
    process.stdout.write(`${md}\n`);
  } finally {
    await db.drop();
  }
}

await main();
