/**
 * Issue 12 item 2 in Chromium: the API reference at `/api-docs` renders from our own origin
 * (no CDN: any request elsewhere is refused and counted), under the server's CSP (no violation
 * logged), and lists the operations of the route table. A screenshot of it is kept.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../server/test/harness.js';
import { CHROMIUM_PATH, launchBrowser, newContext, screenshot } from './browser.js';
import { hasChromium, WEB_DIR } from './support.js';

if (!hasChromium) {
  console.warn(`\n[e2e] SKIPPED: Debian Chromium not found at ${CHROMIUM_PATH}.\n`);
}

describe.skipIf(!hasChromium)('the API reference (Chromium)', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  const elsewhere: string[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    // With the web build served too: /api-docs is the server's page, not the web app's.
    server = await startTestServer({ WEB_DIR });
    browser = await launchBrowser();
    const context = await newContext(browser, { baseUrl: server.url, width: 1366, height: 900 });
    const origin = new URL(server.url).origin;
    // Offline: only our origin answers; anything else is refused and remembered.
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(origin) || url.startsWith('data:')) return route.continue();
      elsewhere.push(url);
      return route.abort();
    });
    page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('renders the operations of the route table offline, under our CSP', async () => {
    const res = await page.goto('/api-docs');
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.locator('.opblock').first().waitFor({ state: 'visible', timeout: 30_000 });
    // Swagger UI renders the operations of the visible part only (a virtual list): scroll to the
    // end, collecting the tags and operations seen on the way.
    const tags = new Set<string>();
    const operations = new Set<string>();
    for (let step = 0; step < 400; step++) {
      const seen = await page.evaluate(() => ({
        tags: [...document.querySelectorAll('.opblock-tag')].map((e) =>
          (e.getAttribute('data-tag') ?? (e as HTMLElement).innerText).trim(),
        ),
        operations: [...document.querySelectorAll('.opblock')].map(
          (e) =>
            `${e.querySelector('.opblock-summary-method')?.textContent ?? ''} ${e.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? ''}`,
        ),
      }));
      for (const t of seen.tags) tags.add(t);
      for (const o of seen.operations) operations.add(o);
      // Down one screen; at the end the page no longer moves. Then two frames for the list.
      const moved = await page.evaluate(async () => {
        const y = window.scrollY;
        window.scrollBy(0, Math.floor(window.innerHeight * 0.8));
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        return window.scrollY !== y;
      });
      if (!moved) break;
    }
    // One section per feature tag, with the endpoints the table declares.
    expect([...tags]).toEqual(expect.arrayContaining(['users', 'tickets', 'campaigns']));
    expect(operations.has('POST /auth/login')).toBe(true);
    expect(operations.size).toBeGreaterThan(50);
    expect(await page.locator('.info .title').innerText()).toContain('Atende API');
    await screenshot(page, 'api-docs-1366');
    expect(elsewhere).toEqual([]);
    expect(problems).toEqual([]);
  });
});
