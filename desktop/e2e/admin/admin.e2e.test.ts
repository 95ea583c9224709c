/**
 * Company administration, as an admin would do it: connect a simulated WhatsApp number by its
 * QR code, set up queues with hours and an option tree, add an agent, change settings, create a
 * tag and a quick message — then a simulated customer walks the menu and the agent works.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type Session, type TestServer } from '../../../server/test/harness';
import { createCompanyWithAdmin } from '../../../server/test/fixtures';
import { CHROMIUM_PATH, launchBrowser, newContext, screenshot, signIn } from '../browser';
import { hasChromium } from '../support';
import { choose, chooseMany, menuKey, sentBodies, toast, until, WEB_DIR } from './support';

const WEEKDAYS = [
  'Segunda-feira',
  'Terça-feira',
  'Quarta-feira',
  'Quinta-feira',
  'Sexta-feira',
  'Sábado',
  'Domingo',
];
const AGENT = { name: 'Agente Vendas', email: 'agente.vendas@empresa.test', password: 'agente123' };

let server: TestServer;
let browser: Browser;
let page: Page;
/** A second admin for control-API calls: the browser's sign-in rotates the first one's tokens. */
let api: Session;
let whatsappId = 0;
let agentPage: Page;

const usersCount = async () =>
  Number((await server.app.ds.query('SELECT count(*) AS n FROM users'))[0].n);

if (!hasChromium) {
  console.warn(
    `\n[e2e] SKIPPED: Debian Chromium not found at ${CHROMIUM_PATH} (apt-get install chromium, ` +
      'or set CHROMIUM_PATH). The end-to-end tests of the admin screens did not run.\n',
  );
}

beforeAll(async () => {
  if (!hasChromium) return;
  server = await startTestServer({ SIMULATOR: 'true', WEB_DIR });
  process.env.ATENDE_URL = server.url;
  const company = await createCompanyWithAdmin(server, { users: 10 });
  const helper = await server.request('POST', '/users', {
    token: company.admin.token,
    body: {
      name: 'Robô de testes',
      email: 'robo@empresa.test',
      password: 'robo123',
      profile: 'admin',
    },
  });
  expect(helper.status).toBe(201);
  api = await server.login('robo@empresa.test', 'robo123');
  browser = await launchBrowser();
  page = await (await newContext(browser)).newPage();
  page.on('pageerror', (error) => console.warn('page error:', error.message));
  page.on('response', (r) => {
    if (r.status() >= 400) console.warn('answer', r.status(), r.request().method(), r.url());
  });
  try {
    await signIn(page, company.email, company.password);
  } catch (error) {
    await screenshot(page, 'admin-sign-in-failed');
    throw error;
  }
});

// A failed step leaves a picture of the page behind, to see why.
afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail' && page) {
    await screenshot(page, `failed-${ctx.task.name.slice(0, 40).replace(/\W+/g, '-')}`);
  }
});

afterAll(async () => {
  await agentPage?.close();
  await browser?.close();
  await server?.close();
});

describe.skipIf(!hasChromium)('company administration', () => {
  it('adds a simulator connection, shows its QR and turns CONNECTED live when scanned', async () => {
    await page.goto('/connections');
    await page.getByRole('button', { name: 'Adicionar WhatsApp' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Nome', { exact: true }).fill('Atendimento');
    await choose(page, dialog, 'Provedor', 'Simulador');
    await screenshot(page, 'connection-modal');
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await toast(page, 'Conexão salva com sucesso.').waitFor();

    const qr = page.getByTestId('qrcode-image');
    await qr.waitFor({ timeout: 30_000 });
    await screenshot(page, 'connection-qrcode');
    const row = page.locator('tr[data-testid^="connection-"]').first();
    whatsappId = Number((await row.getAttribute('data-testid'))!.replace('connection-', ''));

    const scan = await server.request('POST', `/simulator/connections/${whatsappId}/scan`, {
      token: api.token,
      body: {},
    });
    expect(scan.status).toBe(200);
    await row.locator('[data-status="CONNECTED"]').waitFor({ timeout: 30_000 });
    await expect(qr.isVisible()).resolves.toBe(false);
    await screenshot(page, 'connections');
  });

  it('changes a setting and sees it take effect (schedules tab, then queue hours)', async () => {
    await page.goto('/settings');
    await expect(page.getByRole('tab', { name: 'Horários' }).count()).resolves.toBe(0);
    await choose(page, page, 'Gerenciamento de Expediente', 'Gerenciamento por empresa');
    await toast(page, 'Operação atualizada com sucesso.').waitFor();
    await page.getByRole('tab', { name: 'Horários' }).click();
    for (const day of WEEKDAYS) {
      await page.getByLabel(`${day} Início`).fill('00:00');
      await page.getByLabel(`${day} Fim`).fill('23:59');
    }
    await page.getByRole('button', { name: 'Salvar' }).click();
    await toast(page, 'Horários atualizados com sucesso.').waitFor();
    await screenshot(page, 'settings-schedules');
    await page.getByRole('tab', { name: 'Opções' }).click();
    await choose(page, page, 'Gerenciamento de Expediente', 'Gerenciamento por fila');
    await toast(page, 'Operação atualizada com sucesso.').waitFor();
    await expect(page.getByRole('tab', { name: 'Horários' }).count()).resolves.toBe(0);
    await screenshot(page, 'settings');
    const stored = await server.request<{ value: string }>('GET', '/settings/scheduleType', {
      token: api.token,
    });
    expect(stored.body.value).toBe('queue');
  });

  it('refuses an invalid queue and creates two queues with hours and an option tree', async () => {
    await page.goto('/queues');
    await page.getByRole('button', { name: 'Adicionar fila' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await expect(dialog.getByText('Required').count()).resolves.toBe(2);
    const queues = async () =>
      Number((await server.app.ds.query('SELECT count(*) AS n FROM queues'))[0].n);
    expect(await queues()).toBe(0);

    for (const [name, color, order] of [
      ['Vendas', '#B80000', '1'],
      ['Suporte', '#1273DE', '2'],
    ] as const) {
      if (name === 'Suporte') await page.getByRole('button', { name: 'Adicionar fila' }).click();
      await dialog.getByLabel('Nome', { exact: true }).fill(name);
      await dialog.getByRole('button', { name: 'Escolher cor' }).click();
      await page.getByRole('option', { name: color }).click();
      await dialog.getByLabel('Ordem da fila (Bot)').fill(order);
      await dialog.getByLabel('Mensagem de saudação').fill(`Bem-vindo ao ${name}`);
      await dialog.getByRole('tab', { name: 'Horários de Atendimento' }).click();
      for (const day of WEEKDAYS) {
        await dialog.getByLabel(`${day} Início`).fill('00:00');
        await dialog.getByLabel(`${day} Fim`).fill('23:59');
      }
      if (name === 'Suporte') await screenshot(page, 'queue-schedules');
      await dialog.getByRole('tab', { name: 'Dados da Fila' }).click();
      await dialog.getByRole('button', { name: 'Salvar' }).click();
      await toast(page, 'Queue saved successfully').waitFor();
      if (name === 'Suporte') {
        const tree = dialog.getByTestId('option-tree');
        await tree.getByRole('button', { name: 'Adicionar opção' }).click();
        await tree.getByLabel('Título').fill('Segunda via');
        await tree.getByLabel('Mensagem').fill('Enviamos a segunda via do boleto.');
        await tree.getByRole('button', { name: 'Salvar opção' }).click();
        const first = tree.getByTestId('option-1');
        await first.getByRole('button', { name: 'Adicionar sub-opção' }).waitFor();
        await tree.getByRole('button', { name: 'Adicionar opção' }).click();
        await tree.getByLabel('Título').last().fill('Falar com técnico');
        await tree.getByRole('button', { name: 'Salvar opção' }).last().click();
        await tree.getByTestId('option-2').waitFor();
        await first.getByRole('button', { name: 'Adicionar sub-opção' }).click();
        await first.getByLabel('Título').last().fill('Por e-mail');
        await first.getByRole('button', { name: 'Salvar opção' }).last().click();
        await tree.getByTestId('option-1.1').waitFor();
        await screenshot(page, 'queue-option-tree');
      }
      await dialog.getByRole('button', { name: 'Fechar' }).click();
      await dialog.waitFor({ state: 'hidden' });
    }
    await page.getByRole('row', { name: /Suporte/ }).waitFor();
    await screenshot(page, 'queues');
    expect(await queues()).toBe(2);
    const options = await server.app.ds.query(
      `SELECT option, title, "parentId" FROM queue_options ORDER BY id`,
    );
    expect(options).toHaveLength(3);
  });

  it('gives the connection both queues and a greeting', async () => {
    await page.goto('/connections');
    const row = page.locator(`tr[data-testid="connection-${whatsappId}"]`);
    await row.getByRole('button', { name: 'Editar' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Mensagem de saudação').fill('Olá! Escolha um setor:');
    await chooseMany(page, dialog, 'Filas', ['Vendas', 'Suporte']);
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await toast(page, 'Conexão salva com sucesso.').waitFor();
  });

  it('routes a simulated customer through the menu to the right queue', async () => {
    const say = (from: string, name: string, body: string) =>
      server.request('POST', '/simulator/inbound', {
        token: api.token,
        body: { whatsappId, from, name, body },
      });
    const to = (number: string) => async () =>
      (await sentBodies(server, api.token, whatsappId))
        .filter((m) => m.to.startsWith(number))
        .map((m) => m.body ?? '')
        .join('\n');

    const suporte = '5511988880001';
    expect((await say(suporte, 'Cliente Suporte', 'oi')).status).toBe(200);
    const menu = await until('the queue menu', async () => {
      const text = await to(suporte)();
      return menuKey(text, 'Suporte') ? text : undefined;
    });
    await say(suporte, 'Cliente Suporte', menuKey(menu, 'Suporte')!);
    const options = await until('the option tree', async () => {
      const text = await to(suporte)();
      return menuKey(text, 'Segunda via') ? text : undefined;
    });
    await say(suporte, 'Cliente Suporte', menuKey(options, 'Segunda via')!);
    await until('the option message', async () =>
      (await to(suporte)()).includes('Enviamos a segunda via do boleto.'),
    );

    const vendas = '5511988880002';
    await say(vendas, 'Cliente Vendas', 'oi');
    const menu2 = await until('the queue menu', async () => {
      const text = await to(vendas)();
      return menuKey(text, 'Vendas') ? text : undefined;
    });
    await say(vendas, 'Cliente Vendas', menuKey(menu2, 'Vendas')!);

    const queueOf = async (number: string) =>
      (
        await server.app.ds.query(
          `SELECT q.name FROM tickets t JOIN contacts c ON c.id = t."contactId"
             JOIN queues q ON q.id = t."queueId" WHERE c.number = $1`,
          [number],
        )
      )[0]?.name as string | undefined;
    await until('Suporte ticket', async () => (await queueOf(suporte)) === 'Suporte');
    await until('Vendas ticket', async () => (await queueOf(vendas)) === 'Vendas');
  });

  it('refuses an invalid user, then adds an agent limited to one queue', async () => {
    await page.goto('/users');
    await page.getByRole('button', { name: 'Adicionar usuário' }).click();
    const dialog = page.getByRole('dialog');
    const before = await usersCount();
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await expect(dialog.getByText('Required').count()).resolves.toBe(3);
    await dialog.getByLabel('Nome').fill('A');
    await dialog.getByLabel('Email').fill('not-an-email');
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await dialog.getByText('Invalid email').waitFor();
    await dialog.getByText('Too Short!').first().waitFor();
    await screenshot(page, 'user-validation');
    expect(await usersCount()).toBe(before);

    await dialog.getByLabel('Nome').fill(AGENT.name);
    await dialog.getByLabel('Email').fill(AGENT.email);
    await dialog.getByLabel('Senha', { exact: true }).fill(AGENT.password);
    await chooseMany(page, dialog, 'Filas', ['Vendas']);
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await toast(page, 'Usuário salvo com sucesso.').waitFor();
    await page.getByRole('cell', { name: AGENT.email }).waitFor();
    await screenshot(page, 'users');
    expect(await usersCount()).toBe(before + 1);
  });

  it('creates a tag (after a refused one) and a quick message', async () => {
    await page.goto('/tags');
    await page.getByRole('button', { name: 'Nova Tag' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Nome').fill('ab');
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await dialog.getByText('Mensagem muito curta').waitFor();
    await dialog.getByLabel('Nome').fill('Cliente VIP');
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await toast(page, 'Tag salva com sucesso.').waitFor();
    await page.getByText('Cliente VIP').waitFor();
    await screenshot(page, 'tags');

    await page.goto('/quick-messages');
    await page.getByRole('button', { name: 'Adicionar' }).click();
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await dialog.getByText('Obrigatório').waitFor();
    await dialog.getByLabel('Atalho').fill('preco');
    await dialog.getByLabel('Resposta').fill('Nossos preços estão na tabela.');
    await dialog.getByLabel('Global (toda a empresa)').check();
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await toast(page, 'Resposta rápida salva com sucesso.').waitFor();
    await page.getByRole('cell', { name: 'Sem anexo' }).waitFor();
    await screenshot(page, 'quick-messages');
  });

  it('signs the agent in: they see only the Vendas ticket', async () => {
    agentPage = await (await newContext(browser)).newPage();
    agentPage.on('response', (r) => {
      if (r.status() >= 400)
        console.warn('agent answer', r.status(), r.request().method(), r.url());
    });
    agentPage.on('console', (m) => {
      if (m.type() === 'error') console.warn('agent console', m.text());
    });
    agentPage.on('response', (r) => {
      if (r.status() >= 400)
        console.warn('agent answer', r.status(), r.request().method(), r.url());
    });
    await signIn(agentPage, AGENT.email, AGENT.password);
    // Routed tickets wait in the pending tab until an agent accepts them.
    await agentPage.getByRole('tab', { name: /Aguardando/ }).click();
    await agentPage
      .getByText('Cliente Vendas')
      .first()
      .waitFor({ timeout: 30_000 })
      .catch(async (e) => {
        await screenshot(agentPage, 'failed-agent-tickets');
        throw e;
      });
    await expect(agentPage.getByText('Cliente Suporte').count()).resolves.toBe(0);
    await screenshot(agentPage, 'agent-tickets');
  });

  it('lets the agent accept the ticket and insert the quick message with /', async () => {
    // A pending ticket opens by accepting it (core §2).
    const item = agentPage.getByTestId(/^ticket-/).filter({ hasText: 'Cliente Vendas' });
    await item.getByRole('button', { name: 'Aceitar' }).click();
    // Accepting opens the ticket (core §4: on open the ticket stays selected).
    await agentPage.waitForURL('**/tickets/*-*');
    const input = agentPage.getByLabel('Digite uma mensagem');
    await input.waitFor({ timeout: 30_000 }).catch(async (e) => {
      await screenshot(agentPage, 'failed-agent-ticket');
      throw e;
    });
    await input.fill('/pre');
    await agentPage.getByText(/^preco - /).click();
    await expect(input.inputValue()).resolves.toBe('Nossos preços estão na tabela.');
    await screenshot(agentPage, 'agent-quick-message');
  });
});
