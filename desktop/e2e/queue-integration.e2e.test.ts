/**
 * Queue integrations in Chromium (issue 18 item 2): an admin configures a Typebot integration
 * against the Typebot stand-in and attaches it to a queue; a simulated customer goes through the
 * flow (bubbles, a choice typed as words) and the flow hands the ticket to another queue, where
 * its agent accepts it. The page and the dialog are photographed at 390, 1000 and 1440 px.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTypebotStandin } from '../../server/test/standins/typebot.js';
import { launchBrowser, newContext, screenshot, signIn } from './browser.js';
import { expectText, hasChromium, sentTo, startWorld, ticketOf, type World } from './support.js';
import { choose, toast } from './admin/support.js';

const CUSTOMER = { phone: '5511955554444', name: 'Paula Cliente' };
const WIDTHS = [390, 1000, 1440] as const;

describe.skipIf(!hasChromium)('queue integrations (Chromium)', () => {
  let world: World;
  let browser: Browser;
  let page: Page;
  let typebot: Awaited<ReturnType<typeof startTypebotStandin>>;

  beforeAll(async () => {
    world = await startWorld();
    // The connection's only queue is Vendas: a new conversation enters it at once.
    const linked = await world.server.request('PUT', `/whatsapp/${world.whatsappId}`, {
      token: world.apiToken,
      body: { queueIds: [world.sales] },
    });
    expect(linked.status).toBe(200);
    typebot = await startTypebotStandin({
      publicId: 'loja-atende',
      flow: [
        { text: 'Olá, **{{name}}**! Sou o assistente da loja.' },
        { choice: ['Ver produtos', 'Falar com um atendente'], variable: 'opcao' },
        { text: 'Certo! Vou transferir você para um atendente.' },
        { text: `#{"queueId": ${world.support}}` },
      ],
    });
    browser = await launchBrowser();
    const context = await newContext(browser, { baseUrl: world.server.url, width: 1440 });
    page = await context.newPage();
    page.on('pageerror', (error) => console.warn(`[browser] ${error.message}`));
    await signIn(page, world.admin.email, world.admin.password);
  }, 180_000);

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && page && !page.isClosed()) {
      await screenshot(page, `failed-qi-${ctx.task.name.replace(/\W+/g, '-').slice(0, 40)}`);
    }
  });
  afterAll(async () => {
    await browser?.close();
    await world?.server.close();
    await typebot?.close();
  });

  it('the admin adds a Typebot integration and attaches it to the queue', async () => {
    await page.goto('/queue-integration');
    await page.getByRole('heading', { name: 'Integrações (0)' }).waitFor();
    await page.getByRole('button', { name: 'Adicionar projeto', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await dialog.getByLabel('Nome', { exact: true }).fill('Typebot Loja');
    await dialog.getByLabel('URL do Typebot').fill(typebot.url);
    await dialog.getByLabel('Typebot - Slug').fill('loja-atende');
    await dialog.getByLabel('Intervalo (ms) entre mensagens').fill('300');
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await toast(page, 'Integração salva com sucesso.').waitFor();
    await page.getByRole('heading', { name: 'Integrações (1)' }).waitFor();
    const row = page.getByRole('row').filter({ hasText: 'Typebot Loja' });
    await row.waitFor();
    expect(await row.locator('[data-type="typebot"] svg').count()).toBe(1);

    await page.goto('/queues');
    const queue = page.getByRole('row').filter({ hasText: 'Vendas' }).first();
    await queue.getByRole('button', { name: 'Editar' }).click();
    const queueDialog = page.getByRole('dialog');
    await queueDialog.waitFor();
    await choose(page, queueDialog, 'Integração', 'Typebot Loja');
    await queueDialog.getByRole('button', { name: 'Salvar' }).click();
    await queueDialog.waitFor({ state: 'detached' });
    const [saved] = (await world.server.app.ds.query(
      'SELECT "integrationId" FROM queues WHERE id = $1',
      [world.sales],
    )) as { integrationId: number | null }[];
    expect(saved!.integrationId).not.toBeNull();
  });

  it('a customer goes through the flow and is handed to an agent of the other queue', async () => {
    await world.sim.inbound({
      whatsappId: world.whatsappId,
      from: CUSTOMER.phone,
      name: CUSTOMER.name,
      body: 'Oi, boa tarde',
    });
    await sentTo(world, (o) => o.body === 'Olá, *Paula Cliente*! Sou o assistente da loja.');
    await sentTo(world, (o) => o.body === '1 - Ver produtos\n2 - Falar com um atendente');
    // A choice typed as words, without accents and in another case.
    await world.sim.inbound({
      whatsappId: world.whatsappId,
      from: CUSTOMER.phone,
      name: CUSTOMER.name,
      body: 'falar com um ATENDENTE',
    });
    await sentTo(world, (o) => o.body === 'Certo! Vou transferir você para um atendente.');
    const ticket = await ticketOf(world, CUSTOMER.phone);
    const moved = await world.sim.until(async () => {
      const [row] = (await world.server.app.ds.query(
        'SELECT "queueId", status, "userId" FROM tickets WHERE id = $1',
        [ticket.id],
      )) as { queueId: number; status: string; userId: number | null }[];
      return row?.queueId === world.support ? row : undefined;
    }, 15_000);
    expect(moved).toMatchObject({ status: 'pending', userId: null });

    // Bruno, of Suporte, finds the conversation waiting and accepts it.
    const agentContext = await newContext(browser, { baseUrl: world.server.url, width: 1440 });
    const agentPage = await agentContext.newPage();
    try {
      await signIn(agentPage, world.agent.email, world.agent.password);
      await agentPage.getByRole('tab', { name: /Aguardando/ }).click();
      const item = agentPage.getByTestId(/^ticket-/).filter({ hasText: CUSTOMER.name });
      await item.waitFor({ timeout: 15_000 });
      await screenshot(agentPage, 'queue-integration-handed-to-agent-pending');
      await item.getByRole('button', { name: 'Aceitar' }).click();
      await agentPage.waitForURL('**/tickets/*-*');
      await expectText(agentPage, 'Certo! Vou transferir você para um atendente.');
      await expectText(agentPage, 'falar com um ATENDENTE');
      await screenshot(agentPage, 'queue-integration-handed-to-agent');
    } finally {
      await agentContext.close();
    }
  });

  for (const width of WIDTHS) {
    it(`${width} px: the list and the dialog fit the screen`, async () => {
      await page.setViewportSize({ width, height: width < 600 ? 844 : 800 });
      await page.goto('/queue-integration');
      await page.getByRole('row').filter({ hasText: 'Typebot Loja' }).waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(overflow).toBeLessThanOrEqual(width + 1);
      await screenshot(page, `queue-integration-${width}`);
      const row = page.getByRole('row').filter({ hasText: 'Typebot Loja' });
      await row.getByRole('button', { name: 'Editar' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      await page.waitForFunction(() =>
        document.getAnimations().every((a) => a.playState !== 'running'),
      );
      const box = (await dialog.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(width);
      await screenshot(page, `queue-integration-dialog-${width}`);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
    });
  }
});
