/**
 * The super user's settings tabs (issue 15 item 1) in Chromium: a plan and a company made through
 * the forms, a login logo uploaded that the login page then shows, a help video that every user
 * sees on /helps (grid, count, modal player closed by Escape), and a company admin sent away from
 * a super tab with 'Sem permissão para acessar!'. Screenshots at 390, 1000 and 1440 px.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCompanyWithAdmin } from '../../server/test/fixtures';
import { ADMIN, startTestServer, type TestServer } from '../../server/test/harness';
import { CHROMIUM_PATH, launchBrowser, newContext, screenshot, signIn } from './browser';
import { toast, until, WEB_DIR } from './admin/support';
import { hasChromium, PNG } from './support';

const WIDTHS = [390, 1000, 1440] as const;
const PLAN = 'Plano Ouro E2E';
const COMPANY = 'Empresa Criada E2E';
/** The login logo: an SVG of a known width, so the login page is seen drawing it. */
const LOGO = Buffer.from(
  '<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="240" height="64" viewBox="0 0 240 64"><rect width="240" height="64" rx="12" fill="#307ABD"/><text x="120" y="42" font-size="26" text-anchor="middle" fill="#fff" font-family="sans-serif">ACME Atende</text></svg>',
);

let server: TestServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let company: Awaited<ReturnType<typeof createCompanyWithAdmin>>;

if (!hasChromium) console.warn(`[e2e] SKIPPED: no Chromium at ${CHROMIUM_PATH}`);

/**
 * No network here: YouTube's thumbnail and player are answered locally, at their real addresses,
 * so the page's CSP is what decides whether they load.
 */
async function fakeYoutube(ctx: BrowserContext, seen: string[]) {
  await ctx.route('https://img.youtube.com/**', (route) => {
    seen.push(route.request().url());
    return route.fulfill({ status: 200, contentType: 'image/png', body: PNG });
  });
  await ctx.route('https://www.youtube-nocookie.com/**', (route) => {
    seen.push(route.request().url());
    return route.fulfill({
      status: 200,
      contentType: 'text/html',
      body: '<html><body style="background:#000;color:#fff">player</body></html>',
    });
  });
}

beforeAll(async () => {
  if (!hasChromium) return;
  server = await startTestServer({ SIMULATOR: 'true', WEB_DIR });
  process.env.ATENDE_URL = server.url;
  company = await createCompanyWithAdmin(server);
  browser = await launchBrowser();
  context = await newContext(browser, { width: 1440, height: 900 });
  page = await context.newPage();
  page.on('pageerror', (error) => console.warn('page error:', error.message));
  await signIn(page, ADMIN.email, ADMIN.password);
});

afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail' && page) {
    await screenshot(page, `superuser-failed-${ctx.task.name.slice(0, 30).replace(/\W+/g, '-')}`);
  }
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Picks `option` in the MUI select labelled exactly `label` ('Interno' is not 'Chat Interno'). */
async function choose(
  p: Page,
  scope: Page | ReturnType<Page['getByTestId']>,
  label: string,
  option: string,
) {
  await scope.getByRole('combobox', { name: label, exact: true }).click();
  await p.getByRole('option', { name: option, exact: true }).click();
}

/**
 * The page at 390, 1000 and 1440 px. A phone-wide page shows the drawer as an overlay when it was
 * open on a wide screen: it is closed first, as a phone user would see the page.
 */
async function shots(p: Page, name: string) {
  for (const width of WIDTHS) {
    await p.setViewportSize({ width, height: 900 });
    const close = p.getByRole('button', { name: 'Fechar menu' });
    if (width < 600 && (await close.isVisible())) {
      await close.click();
      await close.waitFor({ state: 'hidden' });
    }
    await screenshot(p, `superuser-${name}-${width}`);
  }
  await p.setViewportSize({ width: 1440, height: 900 });
}

describe.skipIf(!hasChromium)('super user settings tabs', () => {
  it('creates a plan through the Plans tab', async () => {
    await page.goto('/settings');
    await page.getByRole('tab', { name: 'Planos' }).click();
    const form = page.getByTestId('plan-form');
    await form.getByLabel('Nome').fill(PLAN);
    await form.getByLabel('Usuários').fill('12');
    await form.getByLabel('Conexões').fill('3');
    await form.getByLabel('Filas').fill('4');
    await form.getByLabel('Valor').fill('199.90');
    await choose(page, form, 'Kanban', 'Não');
    await choose(page, form, 'Interno', 'Sim');
    await page.getByTestId('plan-save').click();
    await toast(page, 'Operação realizada com sucesso!').waitFor();
    const row = page.getByTestId('plan-table').getByRole('row', { name: new RegExp(PLAN) });
    await row.waitFor();
    await expect(row.textContent()).resolves.toMatch(/R\$\s?199,90/);
    const [stored] = await server.app.ds.query(
      'SELECT users, "useKanban", "useInternal", value FROM plans WHERE name = $1',
      [PLAN],
    );
    // useInternal is shown inverted (admin §3): 'Sim' stores false.
    expect(stored).toMatchObject({ users: 12, useKanban: false, useInternal: false });
    expect(Number(stored.value)).toBe(199.9);
    await shots(page, 'plans');
  });

  it('creates a company with that plan, moves its due date with + Vencimento and tints it', async () => {
    await page.getByRole('tab', { name: 'Empresas' }).click();
    const form = page.getByTestId('company-form');
    await form.getByLabel('Nome').fill(COMPANY);
    await form.getByLabel('E-mail').fill('criada@e2e.test');
    await choose(page, form, 'Plano', PLAN);
    const soon = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    await form.getByLabel('Vencimento').fill(soon);
    await page.getByTestId('company-save').click();
    await toast(page, 'Operação realizada com sucesso!').waitFor();
    const row = page.getByTestId('company-table').getByRole('row', { name: new RegExp(COMPANY) });
    await row.waitFor();
    // Two days to go: amber (admin §4).
    const cell = row.locator('td').first();
    await expect(cell.evaluate((td) => getComputedStyle(td).backgroundColor)).resolves.toBe(
      'rgb(247, 204, 143)',
    );
    await shots(page, 'companies');

    // Picked again, '+ Vencimento' adds one month (MENSAL) to the form's date.
    await row.getByRole('button', { name: 'Editar' }).click();
    await expect(form.getByLabel('Vencimento').inputValue()).resolves.toBe(soon);
    await page.getByTestId('company-add-due').click();
    const [y, m, d] = soon.split('-').map(Number) as [number, number, number];
    const next = new Date(Date.UTC(y, m, Math.min(d, new Date(Date.UTC(y, m + 1, 0)).getUTCDate())))
      .toISOString()
      .slice(0, 10);
    await expect(form.getByLabel('Vencimento').inputValue()).resolves.toBe(next);
    await page.getByTestId('company-save').click();
    await toast(page, 'Operação realizada com sucesso!').first().waitFor();
    await until('the new due date', async () => {
      const [c] = await server.app.ds.query(
        `SELECT to_char("dueDate", 'YYYY-MM-DD') AS due FROM companies WHERE name = $1`,
        [COMPANY],
      );
      return c?.due === next;
    });
  });

  it('adds a help video through the Help tab', async () => {
    await page.getByRole('tab', { name: 'Ajuda' }).click();
    const form = page.getByTestId('help-form');
    await form.getByLabel('Título').fill('Primeiros passos');
    await form.getByLabel('Código do Vídeo').fill('not a video');
    await page.getByTestId('help-save').click();
    await page.getByText('Código de vídeo do YouTube inválido').waitFor();
    await form.getByLabel('Código do Vídeo').fill('https://youtu.be/dQw4w9WgXcQ');
    await form.getByLabel('Descrição').fill('Como atender o primeiro cliente');
    await page.getByTestId('help-save').click();
    await toast(page, 'Operação realizada com sucesso!').first().waitFor();
    await page.getByTestId('help-table').getByRole('cell', { name: 'dQw4w9WgXcQ' }).waitFor();
    await shots(page, 'helps-tab');
  });

  it('uploads a login logo that the login page then shows', async () => {
    await page.getByRole('tab', { name: 'Logo' }).click();
    await page.getByTestId('logo-upload').click();
    await toast(page, 'Escolha um arquivo!').waitFor();
    await page
      .getByTestId('logo-input')
      .setInputFiles({ name: 'logo.gif', mimeType: 'image/gif', buffer: PNG });
    await choose(page, page, 'Destino', 'Login');
    await page.getByTestId('logo-upload').click();
    await toast(page, 'Use somente arquivos em formato PNG, ICO ou SVG!').waitFor();
    await page
      .getByTestId('logo-input')
      .setInputFiles({ name: 'logo.svg', mimeType: 'image/svg+xml', buffer: LOGO });
    await page.getByTestId('logo-upload').click();
    await toast(page, 'Arquivo anexado com sucesso!').waitFor();
    await page.getByRole('img', { name: 'Login' }).waitFor();
    await shots(page, 'logo-tab');

    const visitor = await newContext(browser, { width: 1000 });
    const login = await visitor.newPage();
    await login.goto('/login');
    const logo = login.getByTestId('auth-logo');
    await logo.waitFor();
    await until('the logo drawn', () =>
      logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth === 240),
    );
    for (const width of WIDTHS) {
      await login.setViewportSize({ width, height: 800 });
      await screenshot(login, `superuser-login-logo-${width}`);
    }
    await visitor.close();
  });
});

describe.skipIf(!hasChromium)('a company admin', () => {
  let admin: Page;
  const seen: string[] = [];

  beforeAll(async () => {
    if (!hasChromium) return;
    const ctx = await newContext(browser, { width: 1440, height: 900 });
    await fakeYoutube(ctx, seen);
    admin = await ctx.newPage();
    await signIn(admin, company.email, company.password);
  });

  it("opening a super tab gets 'Sem permissão para acessar!' and goes to / after 0.5 s", async () => {
    await admin.goto('/settings?tab=companies');
    await toast(admin, 'Sem permissão para acessar!').waitFor();
    await admin.waitForURL((url) => url.pathname === '/', { timeout: 5_000 });
    await expect(admin.getByRole('tab', { name: 'Empresas' }).count()).resolves.toBe(0);
  });

  it('sees the help videos on /helps and plays one in a modal that Escape closes', async () => {
    await admin.goto('/helps');
    await admin.getByRole('heading', { name: 'Ajuda (1)' }).waitFor();
    const card = admin.getByRole('button', { name: 'Assistir: Primeiros passos' });
    await card.waitFor();
    await until('the thumbnail drawn', () =>
      card.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
    );
    expect(seen.some((u) => u.startsWith('https://img.youtube.com/vi/dQw4w9WgXcQ/'))).toBe(true);
    await shots(admin, 'helps-page');
    await card.click();
    const player = admin.getByTestId('help-player');
    await player.waitFor();
    expect(await player.getAttribute('src')).toMatch(
      /^https:\/\/www\.youtube-nocookie\.com\/embed\/dQw4w9WgXcQ/,
    );
    await until('the player loaded', async () =>
      seen.some((u) => u.startsWith('https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ')),
    );
    await shots(admin, 'helps-modal');
    await admin.keyboard.press('Escape');
    await player.waitFor({ state: 'detached' });
  });
});
