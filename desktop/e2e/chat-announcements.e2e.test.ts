/**
 * Issue 17 items 2 and 4 in Chromium against a real server: two agents chat with unread badges
 * (the menu dot, the top-bar popover, the count in the list), the chat dialog's browser alerts;
 * the super user posts a high-priority announcement that an agent sees live, with its colour and
 * the dot that goes once opened; an agent on /announcements gets the error and goes to /.
 * Screenshots at 390, 1000 and 1440 px.
 */
import { CHAT_TITLE_REQUIRED, CHAT_USERS_REQUIRED } from '@atende/shared';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN } from '../../server/test/harness.js';
import { CHROMIUM_PATH, launchBrowser, newContext, screenshot, signIn } from './browser.js';
import { expectText, hasChromium, startWorld, type World } from './support.js';

if (!hasChromium) {
  console.warn(`\n[e2e] SKIPPED: Debian Chromium not found at ${CHROMIUM_PATH}.\n`);
}

const WIDTHS = [390, 1000, 1440] as const;
const heightOf = (width: number) => (width < 600 ? 844 : 800);

/** A top-bar dot (MUI Badge) is shown. */
const dotShown = (page: Page, testId: string) =>
  page.locator(`[data-testid="${testId}"] .MuiBadge-badge:not(.MuiBadge-invisible)`);

describe.skipIf(!hasChromium)('internal chat and announcements (Chromium)', () => {
  let world: World;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let ana: Page;
  let bruno: Page;
  let root: Page;
  let chatUuid: string;

  const open = async (width = 1440) => {
    const context = await newContext(browser, {
      baseUrl: world.server.url,
      width,
      height: heightOf(width),
    });
    contexts.push(context);
    const page = await context.newPage();
    page.on('pageerror', (error) => console.warn(`[browser] ${error.message}`));
    return page;
  };

  beforeAll(async () => {
    world = await startWorld();
    browser = await launchBrowser();
    ana = await open();
    bruno = await open();
    await signIn(ana, world.admin.email, world.admin.password);
    await signIn(bruno, world.agent.email, world.agent.password);
  }, 120_000);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await world?.server.close();
  });

  it('the chat dialog refuses with the spec’s browser alerts, then creates the chat', async () => {
    await ana.goto('/chats');
    await ana.getByRole('button', { name: 'Nova' }).click();
    const alerts: string[] = [];
    ana.on('dialog', (d) => {
      alerts.push(d.message());
      void d.accept();
    });
    await ana.getByTestId('chat-save').click();
    await expect.poll(() => alerts).toEqual([CHAT_TITLE_REQUIRED]);
    await ana.getByTestId('chat-title').fill('Equipe de suporte');
    await ana.getByTestId('chat-save').click();
    await expect.poll(() => alerts).toEqual([CHAT_TITLE_REQUIRED, CHAT_USERS_REQUIRED]);
    expect((await world.server.app.ds.query('SELECT count(*)::int AS n FROM chats'))[0].n).toBe(0);
    await ana.getByRole('combobox', { name: 'Usuários' }).click();
    await ana.getByRole('option', { name: world.agent.name }).click();
    await ana.getByTestId('chat-save').click();
    await ana.waitForURL(/\/chats\/[0-9a-f-]{36}$/);
    chatUuid = ana.url().split('/').pop()!;
    await ana.getByTestId('chat-heading').filter({ hasText: 'Equipe de suporte' }).waitFor();
  });

  it('messages raise the unread dot and count for the other agent, live', async () => {
    await bruno.goto('/tickets');
    for (const text of ['Bom dia, Bruno!', 'Pode ver o ticket 42?', 'Obrigada']) {
      await ana.getByTestId('chat-input').fill(text);
      await ana.getByTestId('chat-input').press('Enter');
      await ana.getByTestId('chat-message').filter({ hasText: text }).waitFor();
    }
    // The top-bar popover's dot and the menu item's dot both appear without a reload.
    await dotShown(bruno, 'chats-dot').waitFor({ timeout: 15_000 });
    await bruno
      .locator('[data-testid="drawer"] a[href="/chats"] .MuiBadge-dot')
      .waitFor({ timeout: 15_000 });
    await screenshot(bruno, 'chat-unread-dot-1440');
    await bruno.getByTestId('chats-popover-button').click();
    const item = bruno.getByTestId('chats-popover').getByText('Equipe de suporte');
    await item.waitFor();
    await expect.poll(() => bruno.getByTestId('chats-popover').innerText()).toContain('3');
    await screenshot(bruno, 'chat-popover-1440');
    await item.click();
    await bruno.waitForURL(`**/chats/${chatUuid}`);
    await bruno.getByTestId('chat-message').filter({ hasText: 'Obrigada' }).waitFor();
    // Opening the chat read it: the dots go, on the server too.
    await dotShown(bruno, 'chats-dot').waitFor({ state: 'detached', timeout: 15_000 });
    const [row] = await world.server.app.ds.query(
      `SELECT (SELECT count(*)::int FROM chat_messages m WHERE m."chatId" = cu."chatId"
                 AND m.id > cu."lastReadMessageId" AND m."senderId" <> cu."userId") AS n
         FROM chat_users cu JOIN users u ON u.id = cu."userId" WHERE u.email = $1`,
      [world.agent.email],
    );
    expect(row.n).toBe(0);
  });

  it('a reply reaches the first agent, whose dot appears away from the chat', async () => {
    await ana.goto('/tickets');
    await bruno.getByTestId('chat-input').fill('Vejo agora mesmo.');
    await bruno.getByTestId('chat-input').press('Enter');
    await dotShown(ana, 'chats-dot').waitFor({ timeout: 15_000 });
    await ana.goto(`/chats/${chatUuid}`);
    await ana.getByTestId('chat-message').filter({ hasText: 'Vejo agora mesmo.' }).waitFor();
    await dotShown(ana, 'chats-dot').waitFor({ state: 'detached', timeout: 15_000 });
    // Only the owner sees edit and delete.
    await expect
      .poll(() => ana.getByRole('button', { name: 'Excluir', exact: true }).count())
      .toBe(1);
    expect(await bruno.getByRole('button', { name: 'Excluir', exact: true }).count()).toBe(0);
  });

  it('the super user posts a high-priority announcement an agent sees live', async () => {
    root = await open();
    await signIn(root, ADMIN.email, ADMIN.password);
    await root.goto('/announcements');
    await root.getByRole('heading', { name: 'Informativos' }).waitFor();
    await root.getByRole('button', { name: 'Adicionar' }).click();
    const dialog = root.getByRole('dialog');
    await dialog.getByLabel('Título').fill('Manutenção programada');
    await dialog.getByLabel('Texto').fill('O sistema ficará fora do ar hoje às 23h.');
    await dialog.getByRole('combobox', { name: 'Prioridade' }).click();
    await root.getByRole('option', { name: 'Alta', exact: true }).click();
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await root.getByText('Manutenção programada').first().waitFor();
    await screenshot(root, 'announcements-page-1440');

    await dotShown(bruno, 'announcements-dot').waitFor({ timeout: 15_000 });
    await bruno.getByTestId('announcements-popover-button').click();
    const entry = bruno
      .getByTestId('announcements-popover')
      .locator('[data-priority="1"]')
      .filter({ hasText: 'Manutenção programada' });
    await entry.waitFor();
    const colour = await entry
      .getByText('Manutenção programada')
      .evaluate((el) => getComputedStyle(el).color);
    expect(colour).toBe('rgb(211, 47, 47)');
    await dotShown(bruno, 'announcements-dot').waitFor({ state: 'detached', timeout: 15_000 });
    await screenshot(bruno, 'announcements-popover-1440');
    await bruno.keyboard.press('Escape');
    // The dot stays gone after a reload: the read state is on the server.
    await bruno.reload();
    await bruno.getByTestId('announcements-popover-button').waitFor();
    await expect.poll(() => dotShown(bruno, 'announcements-dot').count()).toBe(0);
  });

  it('an agent on /announcements gets the error and goes to /', async () => {
    await bruno.goto('/announcements');
    await expectText(bruno, /exclusiva do super usuário/);
    await bruno.waitForURL((url) => !url.pathname.startsWith('/announcements'), {
      timeout: 10_000,
    });
  });

  it.each(WIDTHS)('%i px: chats and to-do screens fit', async (width) => {
    await bruno.setViewportSize({ width, height: heightOf(width) });
    await bruno.goto(`/chats/${chatUuid}`);
    await bruno.getByTestId('chat-message').first().waitFor();
    if (width < 600) {
      // Narrow: two tabs, 'Chats' and 'Mensagens'.
      await bruno.getByRole('tab', { name: 'Mensagens' }).waitFor();
      await screenshot(bruno, `chats-messages-${width}`);
      await bruno.getByRole('tab', { name: 'Chats' }).click();
      await bruno.getByTestId('chat-list').waitFor();
    }
    const overflow = await bruno.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(bruno, `chats-${width}`);
    await bruno.getByTestId('announcements-popover-button').click();
    await bruno.getByTestId('announcements-popover').waitFor();
    await screenshot(bruno, `announcements-popover-${width}`);
    await bruno.keyboard.press('Escape');

    await bruno.goto('/todolist');
    await bruno.getByTestId('todo-input').fill('  ');
    await bruno.getByTestId('todo-submit').click();
    expect(await bruno.getByTestId('todo-item').count()).toBe(width === WIDTHS[0] ? 0 : 1);
    if (width === WIDTHS[0]) {
      await bruno.getByTestId('todo-input').fill('Ligar para o cliente às 15h');
      await bruno.getByTestId('todo-input').press('Enter');
    }
    await bruno.getByTestId('todo-item').first().waitFor();
    await screenshot(bruno, `todolist-${width}`);
  });
});
