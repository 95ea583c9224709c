/**
 * First load of the web app per route (issue 14 item 4): builds the web app, starts the real
 * server on a fresh database (it serves the build), opens each route cold in Debian's Chromium
 * (a new browser context each: empty cache) and sums the gzip bytes of the JavaScript the page
 * fetched (entry, modulepreloads, the route's lazy chunks). Writes its section of BENCHMARKS.md.
 *   npx tsx desktop/bench/web-load.ts [--no-build] [--no-write]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import {
  childEnv,
  createDatabase,
  freePort,
  load1,
  log,
  machine,
  repoRoot,
  startGroup,
  waitForHealth,
  writeSection,
} from './support.js';

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];
const BUDGET_KB = 400;
/** A route has finished loading when no script was requested for this long after network idle. */
const QUIET_MS = 1500;
const SUPER = { email: 'web-load@atende.local', password: 'bench-web-load' };

/** The routes measured; `first` marks the first route of issue 14's target. */
const ROUTES: { path: string; label: string; signedIn: boolean; first?: boolean }[] = [
  { path: '/login', label: 'login', signedIn: false, first: true },
  { path: '/tickets', label: 'tickets (shell + tickets page)', signedIn: true, first: true },
  { path: '/', label: 'dashboard', signedIn: true },
  { path: '/contacts', label: 'contacts', signedIn: true },
  { path: '/settings', label: 'settings', signedIn: true },
  { path: '/campaigns', label: 'campaigns', signedIn: true },
  { path: '/kanban', label: 'kanban', signedIn: true },
  { path: '/schedules', label: 'schedules', signedIn: true },
];

interface Fetched {
  url: string;
  raw: number;
  gzip: number;
}

interface Measure {
  requests: number;
  raw: number;
  gzip: number;
  finalPath: string;
  files: Fetched[];
}

const desktopDir = path.join(repoRoot, 'desktop');
const kb = (bytes: number) => (bytes / 1024).toFixed(1);

function build(): string[] {
  log('building the web app (vite build)');
  const run = spawnSync(
    process.execPath,
    [path.join(desktopDir, 'node_modules/vite/bin/vite.js'), 'build'],
    { cwd: desktopDir, env: childEnv({}), encoding: 'utf8' },
  );
  if (run.status !== 0) throw new Error(`vite build failed:\n${run.stderr}`);
  // The bundle-budget plugin's lines (the same sums, from the bundle graph; on stderr).
  return [...`${run.stdout}\n${run.stderr}`.matchAll(/^first load of (.*)$/gm)].map((m) => m[1]!);
}

/** Records every JavaScript response of the page and whether a script request is in flight. */
function watchScripts(page: Page) {
  const files: Fetched[] = [];
  const pending = new Set<string>();
  let lastActivity = Date.now();
  const isScript = (url: string) => new URL(url).pathname.endsWith('.js');
  page.on('request', (request) => {
    if (!isScript(request.url())) return;
    pending.add(request.url());
    lastActivity = Date.now();
  });
  const settle = (url: string) => {
    pending.delete(url);
    lastActivity = Date.now();
  };
  page.on('requestfailed', (request) => settle(request.url()));
  page.on('response', (response) => {
    const url = response.url();
    if (!isScript(url)) return;
    void response.body().then(
      (body) => {
        files.push({ url, raw: body.length, gzip: gzipSync(body).length });
        settle(url);
      },
      () => settle(url),
    );
  });
  const quiet = async () => {
    await page.waitForLoadState('networkidle');
    while (pending.size > 0 || Date.now() - lastActivity < QUIET_MS) {
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  return { files, quiet };
}

const summarise = (files: Fetched[], finalPath: string): Measure => ({
  requests: files.length,
  raw: files.reduce((s, f) => s + f.raw, 0),
  gzip: files.reduce((s, f) => s + f.gzip, 0),
  finalPath,
  files,
});

/** A signed-in browser context: the refresh cookie from POST /auth/login, the token stored. */
async function signedInContext(browser: Browser, baseURL: string): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1366, height: 800 } });
  const res = await context.request.post('/auth/login', { data: SUPER });
  if (!res.ok()) throw new Error(`login: ${res.status()} ${await res.text()}`);
  const { token, user } = (await res.json()) as { token: string; user: { companyId: number } };
  await context.addInitScript(
    ([t, c]) => {
      localStorage.setItem('token', t);
      localStorage.setItem('companyId', c);
      // The campaign routes exist only with the cshow flag (core §2).
      localStorage.setItem('cshow', '1');
    },
    [token, String(user.companyId)] as const,
  );
  return context;
}

async function coldLoad(browser: Browser, baseURL: string, route: (typeof ROUTES)[number]) {
  const context = route.signedIn
    ? await signedInContext(browser, baseURL)
    : await browser.newContext({ baseURL, viewport: { width: 1366, height: 800 } });
  try {
    const page = await context.newPage();
    const { files, quiet } = watchScripts(page);
    await page.goto(route.path, { waitUntil: 'load' });
    await quiet();
    return summarise(files, new URL(page.url()).pathname);
  } finally {
    await context.close();
  }
}

/** A first visit as a person makes it: /login cold, sign in through the form, /tickets. */
async function loginThenTickets(browser: Browser, baseURL: string) {
  const context = await browser.newContext({ baseURL, viewport: { width: 1366, height: 800 } });
  try {
    const page = await context.newPage();
    const { files, quiet } = watchScripts(page);
    await page.goto('/login', { waitUntil: 'load' });
    await quiet();
    const beforeSignIn = files.length;
    await page.getByLabel(/^Email/).fill(SUPER.email);
    await page.getByLabel(/^Senha/).fill(SUPER.password);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.waitForURL('**/tickets');
    await quiet();
    return {
      login: summarise(files.slice(0, beforeSignIn), '/login'),
      afterSignIn: summarise(files.slice(beforeSignIn), new URL(page.url()).pathname),
      total: summarise(files, new URL(page.url()).pathname),
    };
  } finally {
    await context.close();
  }
}

function report(
  rows: { route: (typeof ROUTES)[number]; m: Measure }[],
  flow: Awaited<ReturnType<typeof loginThenTickets>>,
  graph: string[],
  browserVersion: string,
  started: string,
  load: string[],
): string {
  const verdict = (m: Measure, first?: boolean) =>
    m.gzip <= BUDGET_KB * 1024 ? 'met' : first ? '**not met**' : 'over';
  const tickets = rows.find((r) => r.route.path === '/tickets')!.m;
  const biggest = [...tickets.files]
    .sort((a, b) => b.gzip - a.gzip)
    .slice(0, 6)
    .map((f) => `\`${path.basename(new URL(f.url).pathname)}\` ${kb(f.gzip)}`)
    .join(', ');
  const firstMet = rows.filter((r) => r.route.first).every((r) => r.m.gzip <= BUDGET_KB * 1024);
  return [
    '## First load of the web app, per route (issue 14 item 4)',
    '',
    `Date: ${started}. Machine: ${machine()}; Chromium ${browserVersion} (Debian's, headless, through playwright-core). Load average (1 min) ${load.join(' → ')}.`,
    'Command: `npx tsx desktop/bench/web-load.ts` (part of `npm run bench -w desktop`): `vite build`, then the real server',
    '(`server/src/main.ts`, fresh database) serving `desktop/dist/web`; each route opened in a new browser context (cold cache),',
    'signed in through `POST /auth/login` (refresh cookie + stored token) for the private routes. Counted: every `.js` response the',
    'page fetched until the network was idle and no script was requested for 1.5 s: entry, modulepreloads, the lazy route chunks',
    'and what they import. The server does not compress, so gzip is computed from each body (zlib level 6).',
    '',
    `| route | what a cold load runs | JS requests | KB JS | KB gzip JS | ≤${BUDGET_KB} KB gzip |`,
    '|---|---|---|---|---|---|',
    ...rows.map(
      ({ route, m }) =>
        `| \`${route.path}\`${m.finalPath === route.path ? '' : ` (ended at \`${m.finalPath}\`)`} | ${route.label} | ${m.requests} | ${kb(m.raw)} | ${kb(m.gzip)} | ${verdict(m, route.first)} |`,
    ),
    '',
    "A person's first visit in one context: `/login` cold, then signing in through the form, which opens `/tickets`:",
    '',
    '| step | JS requests | KB gzip JS |',
    '|---|---|---|',
    `| \`/login\` | ${flow.login.requests} | ${kb(flow.login.gzip)} |`,
    `| sign in → \`${flow.afterSignIn.finalPath}\` (what it adds) | ${flow.afterSignIn.requests} | ${kb(flow.afterSignIn.gzip)} |`,
    `| both | ${flow.total.requests} | ${kb(flow.total.gzip)} |`,
    '',
    `Largest files of a cold \`/tickets\` (KB gzip): ${biggest}.`,
    graph.length
      ? `The build's own check (\`desktop/bundle-budget.ts\`, entry + the route's lazy chunks and their static imports, from the bundle graph; it fails the build over ${BUDGET_KB} KB): ${graph.join('; ')}.`
      : '',
    '',
    `First route (login, then tickets) ≤${BUDGET_KB} KB gzip JS: **${firstMet ? 'met' : 'not met'}**.`,
  ].join('\n');
}

async function main() {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`no Chromium at ${CHROMIUM_PATH}`);
  const started = new Date().toISOString();
  const load = [load1()];
  const graph = process.argv.includes('--no-build') ? [] : build();
  // The server (run from source by tsx) reads @atende/shared's build.
  execFileSync(process.execPath, [path.join(repoRoot, 'node_modules/typescript/bin/tsc'), '-b'], {
    cwd: path.join(repoRoot, 'shared'),
    stdio: 'inherit',
  });
  const db = await createDatabase('webload');
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const server = startGroup(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: path.join(repoRoot, 'server'),
    env: childEnv({
      DATABASE_URL: db.url,
      PORT: String(port),
      HOST: '127.0.0.1',
      REDIS_PREFIX: `bench-webload-${Date.now()}`,
      LOG_LEVEL: 'warn',
      WEB_DIR: path.join(desktopDir, 'dist/web'),
      ADMIN_EMAIL: SUPER.email,
      ADMIN_PASSWORD: SUPER.password,
      // One sign-in per route and one through the form: above the default 10 per window.
      LOGIN_RATE_LIMIT: '100',
    }),
  });
  let browser: Browser | undefined;
  try {
    await waitForHealth(baseURL, server.child);
    log(`server at ${baseURL}`);
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
      headless: true,
    });
    const rows: { route: (typeof ROUTES)[number]; m: Measure }[] = [];
    for (const route of ROUTES) {
      const m = await coldLoad(browser, baseURL, route);
      log(`${route.path}: ${m.requests} JS files, ${kb(m.gzip)} KB gzip (ended at ${m.finalPath})`);
      rows.push({ route, m });
    }
    const flow = await loginThenTickets(browser, baseURL);
    log(`login → tickets: ${kb(flow.login.gzip)} + ${kb(flow.afterSignIn.gzip)} KB gzip`);
    load.push(load1());
    const md = report(rows, flow, graph, browser.version(), started, load);
    if (!process.argv.includes('--no-write')) writeSection('web-first-load', md);
    process.stdout.write(`${md}\n`);
  } finally {
    await browser?.close();
    await server.stop();
    await db.drop();
  }
}

await main();
