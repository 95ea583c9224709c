/**
 * What the web-load and start-time benches share: the machine line, a fresh database, a free
 * port, a process group started and stopped as one, the wait for /health, and the writer of a
 * marked section of BENCHMARKS.md.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg, totalmem } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The shared Postgres's maintenance database (as the server bench uses). */
const ADMIN_URL = process.env.BENCH_PG ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export const machine = () =>
  `${cpus()[0]?.model ?? 'cpu'} × ${cpus().length}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, Node ${process.version}`;

export const load1 = () => loadavg()[0]!.toFixed(1);

export const log = (line: string) => console.warn(`[bench] ${line}`);

/** A fresh, empty database; `drop` removes it. */
export async function createDatabase(tag: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `atende_${tag}_${randomBytes(3).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: ADMIN_URL });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

/** CPU seconds (user + system) of this process's waited-for children so far, from /proc (Linux). */
export function childrenCpuSeconds(): number {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return NaN;
  }
}

/** The pids of a process group's live members, from /proc (Linux). */
function groupMembers(pgid: number): { pid: number; fields: string[] }[] {
  const members: { pid: number; fields: string[] }[] = [];
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return members;
  }
  for (const entry of entries) {
    try {
      const fields = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]!.split(' ');
      if (Number(fields[2]) === pgid) members.push({ pid: Number(entry), fields });
    } catch {
      // Exited while we read.
    }
  }
  return members;
}

/**
 * CPU seconds (user + system) a process group has used so far: its live members' own time plus
 * what their finished children left in their cumulative counters (Linux; NaN elsewhere).
 */
export function groupCpuSeconds(pgid: number): number {
  if (process.platform !== 'linux') return NaN;
  let ticks = 0;
  for (const { fields } of groupMembers(pgid)) {
    ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  }
  return ticks / 100;
}

export interface Group {
  child: ChildProcess;
  /** SIGTERM to the whole group (npm, its shell, node), then waits for the leader to exit. */
  stop(): Promise<void>;
}

/** Starts a command as the leader of its own process group, so stop() reaches its children. */
export function startGroup(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; logFile?: string },
): Group {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('exit', (code, signal) => {
    if (code && !signal) console.error(output);
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null && child.pid) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // Already gone.
      }
      const kill = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }, 15_000);
      await exited;
      // npm may exit before its shell and node do: wait for the whole group, so the port is free.
      while (groupMembers(child.pid).length > 0) await new Promise((r) => setTimeout(r, 50));
      clearTimeout(kill);
    }
  };
  return { child, stop };
}

/** Polls `GET /health` every 50 ms until it answers 200; rejects if the process exits first. */
export async function waitForHealth(url: string, child: ChildProcess, timeoutMs = 600_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode} before /health`);
    const ok = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`${url}/health did not answer in time`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Replaces the text between `<!-- name:start -->` and `<!-- name:end -->` (appends it if absent). */
export function writeSection(name: string, markdown: string) {
  const file = process.env.BENCH_FILE ?? path.join(repoRoot, 'BENCHMARKS.md');
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    text = '# Benchmarks\n';
  }
  const section = `${start}\n${markdown}\n${end}`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  text =
    from >= 0 && to > from
      ? text.slice(0, from) + section + text.slice(to + end.length)
      : `${text.trimEnd()}\n\n${section}\n`;
  writeFileSync(file, text);
}

/** The environment of a child process without NODE_ENV (Vite then builds for production). */
export function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  delete env.NODE_ENV;
  return env;
}
