/**
 * Issue 13 item 1 in Chromium against a real server: one user signed in in two tabs (two pages
 * of one browser context, sharing the refresh cookie) stays signed in across reloads of both
 * tabs, access-token expiry and refreshes made by both tabs at the same moment; a new sign-in of
 * the same user in another browser signs both tabs out with the auth-event message (core §4).
 * The server runs with a short access-token lifetime and grace window, so every round works on
 * an expired token and the refresh-token family rotates several times during the test.
 */
import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompanyWithAdmin } from '../../server/test/fixtures.js';
import { startTestServer, type TestServer } from '../../server/test/harness.js';
import { CHROMIUM_PATH, launchBrowser, newContext, screenshot, signIn } from './browser.js';
import { expectText, hasChromium, WEB_DIR } from './support.js';

if (!hasChromium) {
  console.warn(`\n[e2e] SKIPPED: Debian Chromium not found at ${CHROMIUM_PATH}.\n`);
}

/** Seconds an access token lives here (production: 15 min). */
const ACCESS_TOKEN_TTL_S = 5;
/** Concurrent refreshes share one generation this long (production: 30 s). */
const REFRESH_GRACE_MS = 4_000;
const ROUNDS = 6;
const WIDTHS = [390, 1000, 1440] as const;
const SIGNED_IN_ELSEWHERE = 'Sua conta foi acessada em outro computador.';

const isRefresh = (response: Response) =>
  response.url().endsWith('/auth/refresh_token') && response.request().method() === 'POST';

/** Waits until the newest access token the tabs hold (localStorage) has expired. */
const tokenExpired = (page: Page) =>
  page.waitForFunction(
    () => {
      const token = localStorage.getItem('token');
      if (!token) return false;
      const { exp } = JSON.parse(atob(token.split('.')[1]!)) as { exp: number };
      // The server's clock is this machine's; a whole second past exp is expired for jsonwebtoken.
      return exp * 1000 < Date.now() - 1_000;
    },
    undefined,
    { timeout: (ACCESS_TOKEN_TTL_S + 10) * 1_000, polling: 200 },
  );

/** The tickets page, signed in: the URL, the list's tabs and its loaded (empty) list. */
async function onTickets(page: Page) {
  await page.waitForURL('**/tickets', { timeout: 15_000 });
  await page.getByRole('tab', { name: 'Abertas' }).waitFor({ state: 'visible', timeout: 15_000 });
  // The list has loaded (empty: this company has no conversations).
  await expectText(page, 'Nada aqui!');
  expect(new URL(page.url()).pathname).toBe('/tickets');
}

describe.skipIf(!hasChromium)('two tabs of one user stay signed in (Chromium)', () => {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let tabs: [Page, Page];
  let who: { email: string; password: string; userId: number };
  const refreshStatuses: number[] = [];

  beforeAll(async () => {
    server = await startTestServer({
      WEB_DIR,
      ACCESS_TOKEN_TTL: `${ACCESS_TOKEN_TTL_S}s`,
      REFRESH_GRACE_MS: String(REFRESH_GRACE_MS),
    });
    const company = await createCompanyWithAdmin(server);
    const [user] = (await server.app.ds.query('SELECT id FROM users WHERE email = $1', [
      company.email,
    ])) as { id: number }[];
    who = { email: company.email, password: company.password, userId: user!.id };
    browser = await launchBrowser();
    context = await newContext(browser, { baseUrl: server.url, width: 1000 });
    tabs = [await context.newPage(), await context.newPage()];
    for (const tab of tabs) {
      tab.on('pageerror', (error) => console.warn(`[browser] ${error.message}`));
      tab.on('response', (response) => {
        if (isRefresh(response)) refreshStatuses.push(response.status());
      });
    }
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('signs in in the first tab; the second tab opens signed in', async () => {
    await signIn(tabs[0], who.email, who.password);
    await onTickets(tabs[0]);
    await tabs[1].goto('/tickets');
    await onTickets(tabs[1]);
  });

  it(`stays signed in in both tabs through ${ROUNDS} rounds of expiry and concurrent refreshes`, async () => {
    for (let round = 1; round <= ROUNDS; round++) {
      await tokenExpired(tabs[0]);
      const refreshed = tabs.map((tab) => tab.waitForResponse(isRefresh, { timeout: 15_000 }));
      if (round % 2 === 1) {
        // Both tabs reload at once: each page load refreshes with the shared cookie.
        await Promise.all(tabs.map((tab) => tab.reload()));
      } else {
        // Both tabs call the API with their expired token at once: 403, refresh, retry. (The
        // reload before left both on 'Abertas'; 'Resolvidos' loads its list.)
        await Promise.all(tabs.map((tab) => tab.getByRole('tab', { name: 'Resolvidos' }).click()));
      }
      const answers = await Promise.all(refreshed);
      expect(answers.map((answer) => answer.status())).toEqual([200, 200]);
      for (const tab of tabs) await onTickets(tab);
    }
    expect(refreshStatuses.length).toBeGreaterThanOrEqual(ROUNDS * 2);
    expect(refreshStatuses.filter((status) => status !== 200)).toEqual([]);
    // The family rotated while the tabs were refreshing (a short grace window), and is still live.
    const [family] = (await server.app.ds.query(
      `SELECT generation, "revokedAt" FROM auth_sessions WHERE "userId" = $1
        ORDER BY "createdAt" DESC LIMIT 1`,
      [who.userId],
    )) as { generation: number; revokedAt: Date | null }[];
    expect(family!.revokedAt).toBeNull();
    expect(family!.generation).toBeGreaterThan(1);
  }, 180_000);

  it('both tabs at 390, 1000 and 1440 px, still signed in (screenshots)', async () => {
    for (const width of WIDTHS) {
      for (const [index, tab] of tabs.entries()) {
        await tab.setViewportSize({ width, height: width < 600 ? 844 : 800 });
        await tab.reload();
        await onTickets(tab);
        // A page behind another does not paint; the screenshot waits for a frame.
        await tab.bringToFront();
        await screenshot(tab, `sessions-tab${index + 1}-${width}`);
      }
    }
  }, 120_000);

  it('a new sign-in of the same user in another browser signs both tabs out, with the message', async () => {
    const other = await newContext(browser, { baseUrl: server.url, width: 1000 });
    try {
      const elsewhere = await other.newPage();
      // The signed-out tabs reload themselves 1 s after the message (core §4).
      const reloaded = tabs.map((tab) => tab.waitForEvent('load', { timeout: 20_000 }));
      await signIn(elsewhere, who.email, who.password);
      await Promise.all(tabs.map((tab) => expectText(tab, SIGNED_IN_ELSEWHERE)));
      await tabs[0].bringToFront();
      await screenshot(tabs[0], 'sessions-signed-out-elsewhere');
      await Promise.all(reloaded);
      for (const tab of tabs) {
        await tab.getByRole('button', { name: 'Entrar' }).waitFor({ state: 'visible' });
        expect(new URL(tab.url()).pathname).toBe('/login');
        expect(await tab.evaluate(() => localStorage.getItem('token'))).toBeNull();
      }
      // The old refresh cookie (still in the first browser) is dead.
      const refused = await tabs[1].evaluate(async () => {
        const res = await fetch('/auth/refresh_token', { method: 'POST', credentials: 'include' });
        return res.status;
      });
      expect(refused).toBe(401);
      // The new place is still signed in.
      await elsewhere.reload();
      await onTickets(elsewhere);
    } finally {
      await other.close();
    }
  }, 60_000);
});
