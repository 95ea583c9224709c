import { fileURLToPath } from 'node:url';
import type { Locator, Page } from 'playwright-core';
import type { TestServer } from '../../../server/test/harness';

/** The web build the server serves; `npm run build -w desktop` writes it. */
export const WEB_DIR =
  process.env.WEB_DIR ?? fileURLToPath(new URL('../../dist/web', import.meta.url));

export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined | false>,
  timeoutMs = 20_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Picks `option` in the MUI select labelled `label` inside `scope`. */
export async function choose(page: Page, scope: Locator | Page, label: string, option: string) {
  await scope.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Picks several options in a multiple MUI select, then closes its menu. */
export async function chooseMany(page: Page, scope: Locator, label: string, options: string[]) {
  await scope.getByRole('combobox', { name: label }).click();
  for (const option of options) await page.getByRole('option', { name: option }).click();
  await page.keyboard.press('Escape');
}

/** A toast's text; not by role, since an open dialog hides the rest of the page from ARIA. */
export const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).first();

/** What the platform sent through a simulated connection, as text bodies. */
export async function sentBodies(server: TestServer, token: string, whatsappId: number) {
  const res = await server.request<{ to: string; body?: string }[]>(
    'GET',
    `/simulator/outbound?whatsappId=${whatsappId}`,
    { token },
  );
  return res.body;
}

/** The menu key the bot offered for `label` (lines read `*[ 1 ]* - Label`). */
export function menuKey(text: string, label: string): string | undefined {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`\\*\\[ (\\d+) \\]\\* - ${escaped}`).exec(text)?.[1];
}
