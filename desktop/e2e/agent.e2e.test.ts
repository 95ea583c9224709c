/**
 * The agent app as a person uses it (issue 6 "Must show"): Debian Chromium clicks through the
 * web build served by a real server, while the WhatsApp simulator plays the customers.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_PATH, launchBrowser, newContext, screenshot } from './browser.js';
import {
  expectText,
  hasChromium,
  PNG,
  sentTo,
  startWorld,
  ticketOf,
  type World,
} from './support.js';

if (!hasChromium) {
  console.warn(
    `\n[e2e] SKIPPED: Debian Chromium not found at ${CHROMIUM_PATH} (apt-get install chromium, ` +
      'or set CHROMIUM_PATH). The end-to-end tests of the agent app did not run.\n',
  );
}

const CUSTOMER = { phone: '5511988887777', name: 'Carla Cliente' };
const OTHER = { phone: '5511977776666', name: 'Diego Vendas' };

describe.skipIf(!hasChromium)('agent app end to end (Chromium + simulator)', () => {
  let world: World;
  let browser: Browser;
  let page: Page;
  /** The page a failure is photographed from. */
  let current: Page | undefined;

  beforeAll(async () => {
    world = await startWorld();
    browser = await launchBrowser();
    const context = await newContext(browser, { baseUrl: world.server.url });
    page = await context.newPage();
    current = page;
    page.on(
      'response',
      (r) => r.status() >= 400 && console.warn(`[browser] ${r.status()} ${r.url()}`),
    );
    page.on('pageerror', (error) => console.warn(`[browser] ${error.message}`));
    page.on('console', (m) => m.type() === 'error' && console.warn(`[browser] ${m.text()}`));
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state !== 'fail' || !current || current.isClosed()) return;
    await screenshot(current, `failed-${ctx.task.name.replace(/\W+/g, '-').slice(0, 40)}`);
  });
  afterAll(async () => {
    await browser?.close();
    await world?.server.close();
  });

  const signIn = async (target: Page, who: { email: string; password: string }) => {
    await target.goto('/login');
    await target.getByLabel(/^Email/).fill(who.email);
    await target.getByLabel(/^Senha/).fill(who.password);
    await target.getByRole('button', { name: 'Entrar' }).click();
    await target.waitForURL('**/tickets').catch(async (error: unknown) => {
      await screenshot(target, 'failed-sign-in');
      throw error;
    });
  };

  it('signs in and sees a customer’s new conversation arrive in Pending live', async () => {
    await signIn(page, world.admin);
    await page.getByRole('tab', { name: /Aguardando/ }).click();
    await world.sim.inbound({
      whatsappId: world.whatsappId,
      from: CUSTOMER.phone,
      name: CUSTOMER.name,
      body: 'Olá, preciso de ajuda com meu pedido',
    });
    await expectText(page, CUSTOMER.name);
    await screenshot(page, 'tickets-pending');
  });

  it('accepts the ticket and replies; the customer receives the reply', async () => {
    const item = page.getByTestId(/^ticket-/).filter({ hasText: CUSTOMER.name });
    await item.getByRole('button', { name: 'Aceitar' }).click();
    await page.waitForURL('**/tickets/*-*');
    await expectText(page, 'Olá, preciso de ajuda com meu pedido');
    const input = page.getByLabel('Digite uma mensagem');
    await input.fill('Bom dia, Carla! Vou verificar.');
    await input.press('Enter');
    const sent = await sentTo(world, (o) => o.kind === 'text' && /Vou verificar/.test(o.body));
    expect(sent.body).toContain('*Ana Admin:*');
    expect(sent.to).toContain(CUSTOMER.phone);
    await expectText(page, 'Bom dia, Carla! Vou verificar.');
  });

  it('replies to a quoted message', async () => {
    const quoted = page.getByTestId(/^message-/).filter({ hasText: 'preciso de ajuda' });
    await quoted.hover();
    await quoted.getByRole('button', { name: 'Opções' }).click();
    await page.getByRole('menuitem', { name: 'Responder' }).click();
    await expect(page.getByTestId('reply-preview').textContent()).resolves.toContain(
      'preciso de ajuda',
    );
    const input = page.getByLabel('Digite uma mensagem');
    await input.fill('Sobre o seu pedido: já está a caminho.');
    await input.press('Enter');
    const inbound = await world.server.app.ds.query(
      `SELECT wid FROM messages WHERE body = 'Olá, preciso de ajuda com meu pedido'`,
    );
    const sent = await sentTo(world, (o) => o.kind === 'text' && /a caminho/.test(o.body));
    expect(sent.quotedId).toBe(inbound[0].wid);
  });

  it('sends an attachment', async () => {
    await page
      .getByTestId('attach-input')
      .setInputFiles({ name: 'catalogo.png', mimeType: 'image/png', buffer: PNG });
    const sent = await sentTo(world, (o) => o.kind === 'media');
    expect(sent.media?.mimetype).toBe('image/png');
    expect(sent.media?.size).toBe(PNG.length);
  });

  it('receives an image from the customer and shows it', async () => {
    await world.sim.inbound({
      whatsappId: world.whatsappId,
      from: CUSTOMER.phone,
      name: CUSTOMER.name,
      media: { mimetype: 'image/png', fileName: 'foto.png', base64: PNG.toString('base64') },
    });
    const images = page.getByRole('log').locator('img[src^="blob:"]');
    await images.nth(1).waitFor({ timeout: 15_000 });
    await screenshot(page, 'ticket-thread');
  });

  it('finishes the ticket, which moves to Closed', async () => {
    await page.getByRole('button', { name: 'Resolver' }).click();
    await page.waitForURL(/\/tickets$/);
    await page.getByRole('tab', { name: 'Resolvidos' }).click();
    await expectText(page, CUSTOMER.name);
    await screenshot(page, 'tickets-closed');
  });

  it('switches to English and to the dark theme', async () => {
    await page.getByRole('button', { name: 'Conta' }).click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await page.getByRole('tab', { name: 'Resolved' }).waitFor();
    await page.getByRole('button', { name: 'Toggle theme' }).click();
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const [r, g, b] = background.match(/\d+/g)!.map(Number);
    expect(r! + g! + b!).toBeLessThan(200);
    expect(await page.evaluate(() => localStorage.getItem('preferredTheme'))).toBe('dark');
    await screenshot(page, 'tickets-en-dark');
  });

  it('finds the customer on the contacts page and opens a new ticket from there', async () => {
    await page.getByRole('link', { name: 'Contacts' }).click();
    await page.getByLabel('Search contacts').fill('Carla');
    const row = page.getByRole('row').filter({ hasText: CUSTOMER.name });
    await row.waitFor();
    await screenshot(page, 'contacts');
    await row.getByRole('button', { name: 'Open ticket' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Ok' }).click();
    await page.waitForURL(/\/tickets\/[0-9a-f-]{36}$/);
    await expectText(page, 'Olá, preciso de ajuda com meu pedido');
  });

  it('shows the dashboard and asks for a filter when it has none', async () => {
    await page.getByRole('link', { name: 'Dashboard' }).click();
    await expectText(page, 'Attendants');
    await expectText(page, 'Ana Admin');
    await page.getByLabel('Filter type').click();
    await page.getByRole('option', { name: 'Filter by date' }).click();
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    await expectText(page, 'Set up the filter');
    await screenshot(page, 'dashboard');
  });

  it("keeps a non-admin out of the admin menu and out of another queue's ticket", async () => {
    await world.sim.inbound({
      whatsappId: world.whatsappId,
      from: OTHER.phone,
      name: OTHER.name,
      body: 'Quero comprar',
    });
    const ticket = await ticketOf(world, OTHER.phone);
    const moved = await world.server.request('PUT', `/tickets/${ticket.id}`, {
      token: world.apiToken,
      body: { queueId: world.sales, status: 'pending', userId: null },
    });
    expect(moved.status).toBe(200);

    const context = await newContext(browser, { baseUrl: world.server.url });
    const agentPage = await context.newPage();
    current = agentPage;
    await signIn(agentPage, world.agent);
    await agentPage.getByRole('link', { name: 'Atendimentos' }).waitFor();
    for (const adminItem of ['Dashboard', 'Conexões', 'Usuários', 'Filas & Chatbot']) {
      expect(await agentPage.getByRole('link', { name: adminItem }).count()).toBe(0);
    }
    await screenshot(agentPage, 'agent-menu');
    await agentPage.goto(`/tickets/${ticket.uuid}`);
    await expectText(agentPage, 'Acesso não permitido');
    await agentPage.waitForURL(/\/tickets$/);
    current = page;
    await context.close();
  });
});
