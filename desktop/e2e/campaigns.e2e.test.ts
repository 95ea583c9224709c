/**
 * Campaigns in Chromium (issue 16): an admin creates a campaign with two variants and a
 * confirmation, it runs against the simulator, the report fills live, the admin cancels and
 * restarts it, and it finishes; the settings page saves. Screenshots at 390, 1000 and 1440 px.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCompanyWithAdmin } from '../../server/test/fixtures';
import { startTestServer, type TestServer } from '../../server/test/harness';
import { SimulatorClient } from '../../server/test/simulator-client';
import { simConnection } from '../../server/test/ticketing/fixtures';
import { setSendPolicy } from '../../server/src/modules/governor/index';
import { CHROMIUM_PATH, launchBrowser, newContext, screenshot, signIn } from './browser';
import { choose, toast, until, WEB_DIR } from './admin/support';
import { hasChromium } from './support';

const RECIPIENTS = 8;
let server: TestServer;
let browser: Browser;
let page: Page;
let sim: SimulatorClient;
let whatsappId = 0;
let companyId = 0;
let email = '';
let password = '';

if (!hasChromium) {
  console.warn(`\n[e2e] SKIPPED: Debian Chromium not found at ${CHROMIUM_PATH}.\n`);
}

const numbers = Array.from(
  { length: RECIPIENTS },
  (_, i) => `55119880${String(i).padStart(5, '0')}`,
);

beforeAll(async () => {
  if (!hasChromium) return;
  server = await startTestServer({ SIMULATOR: 'true', WEB_DIR });
  process.env.ATENDE_URL = server.url;
  const company = await createCompanyWithAdmin(server);
  ({ companyId, email, password } = company);
  const robot = await server.request('POST', '/users', {
    token: company.admin.token,
    body: {
      name: 'Robô',
      email: 'robo.campanhas@empresa.test',
      password: 'robo123',
      profile: 'admin',
    },
  });
  expect(robot.status).toBe(201);
  const api = await server.login('robo.campanhas@empresa.test', 'robo123');
  sim = new SimulatorClient(server.url, api.token);
  whatsappId = await simConnection(server, api, sim);
  // Quick pacing for the test: the connection's floor is 300 ms, the campaign's own interval
  // (5 s: 2.5 to 5 s between its messages) leaves time to watch and to cancel.
  await setSendPolicy(
    server.app,
    { whatsappId, companyId },
    {
      minGapMs: 300,
      jitterMs: 0,
      longPauseEvery: 0,
      window: null,
      dailyCap: 0,
      warmupCaps: [],
    },
  );
  await server.request('POST', '/campaign-settings', {
    token: api.token,
    body: { settings: { messageInterval: 5, longerIntervalAfter: 0 } },
  });
  const [list] = (await server.app.ds.query(
    `INSERT INTO contact_lists ("companyId", name) VALUES ($1, 'Clientes VIP') RETURNING id`,
    [companyId],
  )) as { id: number }[];
  await server.app.ds.query(
    `INSERT INTO contact_list_items ("companyId", "contactListId", name, number, email)
     SELECT $1, $2, 'Cliente ' || right(n, 2), n, '' FROM unnest($3::text[]) AS n`,
    [companyId, list!.id, numbers],
  );
  browser = await launchBrowser();
  const context = await newContext(browser, { width: 1440 });
  // Campaign routes exist only with the cshow flag (secondary §2).
  await context.addInitScript(() => localStorage.setItem('cshow', '1'));
  page = await context.newPage();
  page.on('pageerror', (error) => console.warn('page error:', error.message));
  await signIn(page, email, password);
}, 180_000);

afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail' && page) {
    await screenshot(page, `failed-campaigns-${ctx.task.name.slice(0, 30).replace(/\W+/g, '-')}`);
  }
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const shippings = async (state?: string) =>
  Number(
    (
      (await server.app.ds.query(
        `SELECT count(*)::int AS n FROM campaign_shippings
          WHERE "companyId" = $1 AND ($2::text IS NULL OR state = $2)`,
        [companyId, state ?? null],
      )) as { n: number }[]
    )[0]!.n,
  );

describe.skipIf(!hasChromium)('campaigns', () => {
  it('saves the dispatch settings', { timeout: 60_000 }, async () => {
    await page.goto('/campaigns-config');
    await page.getByRole('heading', { name: 'Configurações de Campanhas' }).waitFor();
    await choose(page, page, 'Intervalo Maior Após', '20 mensagens');
    await page.getByTestId('variable-key').fill('loja');
    await page.getByTestId('variable-value').fill('Loja Centro');
    await page.getByTestId('variable-add').click();
    // The same shortcut again is not added.
    await page.getByTestId('variable-key').fill('loja');
    await page.getByTestId('variable-value').fill('Outra');
    await page.getByTestId('variable-add').click();
    await toast(page, 'Esta variável já existe').waitFor();
    await page.getByTestId('settings-save').click();
    await toast(page, 'Configurações salvas').waitFor();
    const [row] = (await server.app.ds.query(
      `SELECT value FROM campaign_settings WHERE "companyId" = $1 AND key = 'variables'`,
      [companyId],
    )) as { value: string }[];
    expect(JSON.parse(row!.value)).toEqual([{ key: 'loja', value: 'Loja Centro' }]);
    // Put the long pause back off for the run below.
    await choose(page, page, 'Intervalo Maior Após', 'Não definido');
    await page.getByTestId('settings-save').click();
    await toast(page, 'Configurações salvas').waitFor();
    await shots('settings', () => page.getByTestId('settings-save').waitFor());
  });

  it(
    'creates a campaign with two variants and a confirmation, watches it live, cancels and restarts it',
    { timeout: 240_000 },
    async () => {
      await page.goto('/campaigns');
      await page.getByRole('heading', { name: 'Campanhas' }).waitFor();
      await page.getByRole('button', { name: 'Nova Campanha' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      await dialog.getByLabel('Nome').fill('Semana do Cliente');
      await choose(page, dialog, 'Lista de Contatos', 'Clientes VIP');
      await choose(page, dialog, 'Conexão', (await connectionName())!);
      await choose(page, dialog, 'Confirmação', 'Habilitada');
      await dialog.getByLabel('Mensagem 1').fill('Olá {nome}, oferta A da {loja}');
      await dialog.getByLabel('Confirmação 1').fill('Posso enviar a oferta, {nome}? Responda SIM');
      await dialog.getByTestId('campaign-tab-2').click();
      await dialog.getByLabel('Mensagem 2').fill('Oi {nome}! oferta B');
      await dialog.getByLabel('Confirmação 2').fill('Quer receber a oferta B? SIM ou NÃO');
      const now = new Date(Date.now() + 60_000);
      const pad = (n: number) => String(n).padStart(2, '0');
      await dialog
        .getByLabel('Agendamento')
        .fill(
          `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}T${pad(now.getHours())}:${pad(now.getMinutes())}`,
        );
      await screenshot(page, 'campaigns-dialog-1440');
      await dialog.getByRole('button', { name: 'Salvar' }).click();
      await toast(page, 'Campanha salva com sucesso.').waitFor();
      const [campaign] = (await server.app.ds.query(
        `SELECT id, status, "scheduledAt" FROM campaigns WHERE "companyId" = $1`,
        [companyId],
      )) as { id: number; status: string; scheduledAt: Date }[];
      expect(campaign!.status).toBe('PROGRAMADA');
      const status = page.getByTestId(`campaign-status-${campaign!.id}`);
      await status.getByText('Programada').waitFor();

      // Bring its time to now (the minute picker cannot say "now"): it starts at once.
      await server.app.ds.query(`UPDATE campaigns SET "scheduledAt" = now() WHERE id = $1`, [
        campaign!.id,
      ]);
      await server.app.ds.query(
        `UPDATE durable_jobs SET "dueAt" = now() WHERE kind = 'campaign-step' AND key = $1`,
        [`campaign:${campaign!.id}`],
      );
      await status.getByText('Em Andamento').waitFor({ timeout: 30_000 });

      await page
        .getByTestId(`campaign-${campaign!.id}`)
        .getByRole('button', { name: 'Relatório' })
        .click();
      await page.waitForURL(`**/campaign/${campaign!.id}/report`);
      await page.getByTestId('report-total').getByText(String(RECIPIENTS)).waitFor();
      // The report fills live: the confirmation requests go out one by one.
      await page.getByTestId('report-sent').getByText('2').waitFor({ timeout: 60_000 });
      const out = await sim.outbound(whatsappId);
      expect(out[0]!.body).toBe('Posso enviar a oferta, Cliente 00? Responda SIM');
      expect(out[1]!.body).toBe('Quer receber a oferta B? SIM ou NÃO');

      // The first customer says yes: the campaign's variant 1 goes to them, the report shows it.
      await sim.inbound({ whatsappId, from: numbers[0]!, body: 'Sim' });
      await until('the offer after the yes', async () =>
        (await sim.outbound(whatsappId)).find(
          (m) => m.body === 'Olá Cliente 00, oferta A da Loja Centro',
        ),
      );
      await page.getByTestId('report-confirmed').getByText('1').waitFor({ timeout: 30_000 });
      await shots('report', () => page.getByTestId('report-confirmed').getByText('1').waitFor());

      // Cancel mid-way from the list, then restart: no recipient twice, all of them in the end.
      await page.goto('/campaigns');
      const row = page.getByTestId(`campaign-${campaign!.id}`);
      await row.getByRole('button', { name: 'Cancelar campanha' }).click();
      await toast(page, 'Campanha cancelada').waitFor();
      await status.getByText('Cancelada').waitFor();
      const sentAtCancel = await shippings('sent');
      expect(sentAtCancel).toBeLessThan(RECIPIENTS);
      await shots('list', () => status.getByText('Cancelada').waitFor());
      await row.getByRole('button', { name: 'Reiniciar campanha' }).click();
      await toast(page, 'Campanha reiniciada').waitFor();
      await page.goto(`/campaign/${campaign!.id}/report`);
      await page.getByTestId('report-status').getByText('Finalizada').waitFor({ timeout: 120_000 });
      const asks = (await sim.outbound(whatsappId)).filter((m) => /SIM/.test(String(m.body)));
      expect(asks).toHaveLength(RECIPIENTS);
      expect(new Set(asks.map((m) => m.to)).size).toBe(RECIPIENTS);
      await page.getByTestId('report-queued').getByText('0').waitFor();
      await screenshot(page, 'campaigns-report-finished-1440');
    },
  );
});

/** The page at 390, 1000 and 1440 px, each loaded afresh at that width (a phone starts with the
 * drawer closed), once `ready` shows. */
async function shots(name: string, ready: () => Promise<unknown>) {
  for (const width of [390, 1000, 1440]) {
    await page.setViewportSize({ width, height: 800 });
    await page.reload();
    await ready();
    await screenshot(page, `campaigns-${name}-${width}`);
  }
}

async function connectionName() {
  const [row] = (await server.app.ds.query('SELECT name FROM whatsapps WHERE id = $1', [
    whatsappId,
  ])) as { name: string }[];
  return row?.name;
}
