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
    // One section per feature tag, with the endpoints the table declares.
    await page.locator('.opblock-tag', { hasText: 'users' }).first().waitFor();
    await expect
      .poll(() => page.locator('.opblock-summary-path[data-path="/auth/login"]').count())
      .toBe(1);
    expect(await page.locator('.opblock').count()).toBeGreaterThan(50);
    expect(await page.locator('.info .title').innerText()).toContain('Atende API');
    await screenshot(page, 'api-docs-1366');
    expect(elsewhere).toEqual([]);
    expect(problems).toEqual([]);
  });
});
