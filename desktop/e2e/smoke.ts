/**
 * A quick check that the helpers work: opens the login page of a running server (or the
 * Vite preview) in Debian Chromium and saves a screenshot. Usage:
 *   ATENDE_URL=http://localhost:4173 npx tsx desktop/e2e/smoke.ts
 */
import { launchBrowser, newContext, screenshot } from './browser';

const browser = await launchBrowser();
try {
  const page = await (await newContext(browser)).newPage();
  await page.goto('/login');
  await page.getByRole('button', { name: 'Entrar' }).waitFor();
  console.warn(`login page rendered; screenshot at ${await screenshot(page, 'login')}`);
} finally {
  await browser.close();
}
