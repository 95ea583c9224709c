/**
 * The admin pages built on the kit, in Chromium at 390, 1000 and 1440 px: each list shows its
 * rows with every row action inside the screen and nothing wider than the screen, a customer
 * writing in appears on the contacts page live, and the add dialogs fit (full screen on a phone).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, screenshot, signIn } from '../browser.js';
import { hasChromium, startWorld, type World } from '../support.js';

const WIDTHS = [390, 1000, 1440] as const;
const heightOf = (width: number) => (width < 600 ? 844 : 800);

/** Each page, a row it shows and the add button's name. */
const PAGES = [
  { path: '/users', row: 'Bruno Agente', add: 'Adicionar usuário' },
  { path: '/tags', row: 'Cliente VIP', add: 'Nova Tag' },
  { path: '/quick-messages', row: 'preco', add: 'Adicionar' },
  { path: '/queues', row: 'Suporte', add: 'Adicionar fila' },
  { path: '/connections', row: 'Simulador', add: 'Adicionar WhatsApp' },
  { path: '/contacts', row: 'Carla Cliente', add: 'Adicionar contato' },
] as const;

/** The right edge of the widest thing on the page (the document or the page's scroll area). */
const widest = (page: Page) =>
  page.evaluate(() =>
    Math.max(
      document.documentElement.scrollWidth,
      ...[...document.querySelectorAll('main, main > *')].map(
        (el) => el.getBoundingClientRect().left + el.scrollWidth,
      ),
    ),
  );

describe.skipIf(!hasChromium)('admin pages on the kit (Chromium)', () => {
  let world: World;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    world = await startWorld();
    const token = world.apiToken;
    for (const [path, body] of [
      ['/tags', { name: 'Cliente VIP', color: '#B80000' }],
      ['/quick-messages', { shortcode: 'preco', message: 'Nossos preços', geral: true }],
    ] as const) {
      const res = await world.server.request('POST', path, { token, body });
      expect(res.status).toBe(201);
    }
    const named = await world.server.request('PUT', `/whatsapp/${world.whatsappId}`, {
      token,
      body: { name: 'Simulador' },
    });
    expect(named.status).toBe(200);
    browser = await launchBrowser();
    const context = await newContext(browser, { baseUrl: world.server.url, width: 1440 });
    page = await context.newPage();
    page.on('pageerror', (error) => console.warn(`[browser] ${error.message}`));
    await signIn(page, world.admin.email, world.admin.password);
  }, 180_000);

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && page) {
      await screenshot(page, `failed-kit-${ctx.task.name.replace(/\W+/g, '-').slice(0, 40)}`);
    }
  });
  afterAll(async () => {
    await browser?.close();
    await world?.server.close();
  });

  it('a customer who writes in appears on the open contacts page (contact event)', async () => {
    await page.goto('/contacts');
    await page.getByRole('heading', { name: 'Contatos' }).waitFor();
    await world.sim.inbound({
      whatsappId: world.whatsappId,
      from: '5511977776666',
      name: 'Carla Cliente',
      body: 'Olá!',
    });
    await page.getByRole('row').filter({ hasText: 'Carla Cliente' }).waitFor({ timeout: 20_000 });
  });

  for (const width of WIDTHS) {
    it(`${width} px: every list page fits, its row actions and add dialog inside the screen`, async () => {
      await page.setViewportSize({ width, height: heightOf(width) });
      for (const { path, row: text, add } of PAGES) {
        await page.goto(path);
        const row = page.getByRole('row').filter({ hasText: text }).first();
        await row.waitFor({ timeout: 15_000 });
        expect(await widest(page)).toBeLessThanOrEqual(width + 1);
        for (const button of await row.getByRole('button').all()) {
          const box = (await button.boundingBox())!;
          expect(box.x).toBeGreaterThanOrEqual(0);
          expect(box.x + box.width).toBeLessThanOrEqual(width);
        }
        const name = path.slice(1);
        await screenshot(page, `kit-${name}-${width}`);

        await page.getByRole('button', { name: add, exact: true }).click();
        const dialog = page.getByRole('dialog');
        await dialog.waitFor();
        await page.waitForFunction(() =>
          document.getAnimations().every((a) => a.playState !== 'running'),
        );
        const box = (await dialog.boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(width);
        await screenshot(page, `kit-${name}-dialog-${width}`);
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });
      }
    });
  }
});
