import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../server/test/harness.js';
import { company, inbound, newPhone, until, type Company } from '../../test-main/server/client.js';

/**
 * Launches the built app on a real Electron binary against a real server: the window loads from
 * app://, the renderer has no Node, signs in through the preload bridge, the cache fills, and
 * with the server gone the ticket still opens from the cache and a reply waits in the outbox.
 */

const desktop = fileURLToPath(new URL('../..', import.meta.url));
let server: TestServer;
let c: Company;
let app: ElectronApplication;
let page: Page;
let serverUp = true;

beforeAll(async () => {
  server = await startTestServer();
  c = await company(server);
  app = await _electron.launch({
    executablePath: process.env.ELECTRON_PATH!,
    args: [join(desktop, 'dist/main/main.cjs')],
    env: {
      ...process.env,
      ATENDE_SERVER_URL: server.url,
      ATENDE_USER_DATA: mkdtempSync(join(tmpdir(), 'atende-e2e-')),
      ATENDE_WEB_ROOT: join(desktop, 'dist/web'),
    },
  });
  page = await app.firstWindow();
});
afterAll(async () => {
  await app?.close();
  if (serverUp) await server?.close();
});

const call = <T>(fn: string, arg?: unknown) =>
  page.evaluate(
    ([name, value]) => (window as any).atendeDesktop[name as string](value) as Promise<unknown>,
    [fn, arg] as const,
  ) as Promise<T>;

describe('desktop app smoke test', () => {
  it('launches hardened on the app protocol', async () => {
    expect(page.url()).toMatch(/^app:\/\/atende\//);
    expect(await page.evaluate(() => typeof (globalThis as any).require)).toBe('undefined');
    expect(await page.evaluate(() => typeof (globalThis as any).process)).toBe('undefined');
    // Context isolation: the bridge is there; Electron's own objects are not.
    expect(await page.evaluate(() => typeof (window as any).atendePlatform.request)).toBe(
      'function',
    );
    expect(await page.evaluate(() => typeof (window as any).ipcRenderer)).toBe('undefined');
    expect(await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)).toBe(1);
    // Navigation away from the app is refused.
    await page.evaluate(() => (window.location.href = 'https://example.org/'));
    await page.waitForTimeout(500);
    expect(page.url()).toMatch(/^app:\/\/atende\//);
  });

  it('signs in, syncs, and opens a ticket offline', async () => {
    const login = await page.evaluate(
      ([email, password]) =>
        (window as any).atendePlatform.request({
          method: 'POST',
          path: '/auth/login',
          body: { email, password },
        }),
      [c.email, c.password] as const,
    );
    expect(login.status).toBe(200);
    const phone = newPhone();
    await inbound(server, c, phone, 'Mensagem para ler no trem');
    const ticketId = await until(async () => {
      const tickets = await call<{ id: number }[]>('tickets', {});
      return tickets[0]?.id;
    }, 20_000);
    await server.close();
    serverUp = false;
    const messages = await call<{ body: string }[]>('messages', { ticketId });
    expect(messages.map((m) => m.body)).toContain('Mensagem para ler no trem');
    const found = await call<{ body: string }[]>('searchMessages', { text: 'trem' });
    expect(found).toHaveLength(1);
    await call('compose', { ticketId, body: 'Respondo quando voltar a rede' });
    const outbox = await call<{ state: string }[]>('outbox');
    expect(outbox).toEqual([expect.objectContaining({ state: 'pending' })]);
    await page.screenshot({ path: join(desktop, 'e2e/screenshots/electron-offline.png') });
  });
});
