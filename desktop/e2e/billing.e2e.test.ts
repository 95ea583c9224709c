/**
 * Billing in Chromium (issue 15): a company admin opens Faturas and pays an invoice through the
 * checkout (Dados, Personalizar, Revisar, then the Pix screen of the platform's static key); the
 * super user sees it among every company's invoices and confirms it; the admin's open checkout
 * shows the renewal message with the new due date and goes to `/`. Screenshots at 390, 1000 and
 * 1440 px of Faturas, the checkout, the Pix screen and the 'Assinatura' page.
 */
import { addLocalDays, addMonths } from '@atende/shared';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generateInvoices } from '../../server/src/modules/billing/invoices.js';
import { createCompanyWithAdmin } from '../../server/test/fixtures.js';
import { ADMIN, startTestServer, type TestServer } from '../../server/test/harness.js';
import { launchBrowser, newContext, screenshot, signIn } from './browser.js';
import { hasChromium, WEB_DIR } from './support.js';

const WIDTHS = [390, 1000, 1440] as const;
const heightOf = (width: number) => (width < 600 ? 844 : 800);
const dayText = (day: string) => day.split('-').reverse().join('/');

/** The right edge of the widest thing on the page: nothing may be wider than the screen. */
const widest = (page: Page) =>
  page.evaluate(() =>
    Math.max(
      document.documentElement.scrollWidth,
      ...[...document.querySelectorAll('main, main > *')].map(
        (el) => el.getBoundingClientRect().left + el.scrollWidth,
      ),
    ),
  );

describe.skipIf(!hasChromium)('billing: Faturas, checkout, Pix, manual confirmation', () => {
  let server: TestServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let adminPage: Page;
  let superPage: Page;
  let company: Awaited<ReturnType<typeof createCompanyWithAdmin>>;
  let invoiceId: number;
  const dueDate = addLocalDays(Date.now(), 3);

  async function pageAt(width: number): Promise<Page> {
    const context = await newContext(browser, {
      baseUrl: server.url,
      width,
      height: heightOf(width),
    });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    contexts.push(context);
    const page = await context.newPage();
    page.on('pageerror', (error) => console.warn(`[browser] ${error.message}`));
    return page;
  }

  beforeAll(async () => {
    server = await startTestServer({ WEB_DIR });
    const root = await server.login(ADMIN.email, ADMIN.password);
    const provider = await server.request('PUT', '/billing/provider', {
      token: root.token,
      body: {
        provider: 'static-pix',
        pixKey: 'financeiro@atende.com.br',
        merchantName: 'Atende Plataforma',
        merchantCity: 'Sao Paulo',
      },
    });
    expect(provider.status).toBe(200);
    company = await createCompanyWithAdmin(server, { dueDate });
    // The daily job's work, done now for the company just made (the job ran at boot).
    await generateInvoices(server.app.ds, new Date());
    const [invoice] = (await server.app.ds.query('SELECT id FROM invoices WHERE "companyId" = $1', [
      company.companyId,
    ])) as { id: number }[];
    invoiceId = invoice!.id;
    browser = await launchBrowser();
    adminPage = await pageAt(1440);
    await signIn(adminPage, company.email, company.password);
    superPage = await pageAt(1000);
    await signIn(superPage, ADMIN.email, ADMIN.password);
  }, 180_000);

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && adminPage) {
      await screenshot(
        adminPage,
        `failed-billing-${ctx.task.name.replace(/\W+/g, '-').slice(0, 40)}`,
      );
    }
  });
  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await server?.close();
  });

  it('the admin pays through the checkout, the super user confirms, the checkout shows the renewal', async () => {
    // The top bar's warning (3 days left) leads to the subscription page.
    await adminPage.getByRole('alert').filter({ hasText: 'Sua assinatura vence em 3' }).click();
    await adminPage.waitForURL('**/subscription');
    await adminPage.getByRole('heading', { name: 'Assinatura' }).waitFor();
    await adminPage.getByTestId('subscription-email').getByText(company.email).waitFor();

    await adminPage.goto('/financeiro');
    await adminPage.getByRole('heading', { name: 'Faturas' }).waitFor();
    const row = adminPage.getByTestId(`invoice-${invoiceId}`);
    await row.getByText('Em Aberto').waitFor();
    await screenshot(adminPage, 'billing-faturas-1440');

    await row.getByRole('button', { name: 'PAGAR' }).click();
    const dialog = adminPage.getByRole('dialog');
    await dialog.getByText('Personalizar').waitFor();
    await screenshot(adminPage, 'billing-checkout-plan-1440');
    await dialog.getByRole('button', { name: 'VOLTAR' }).click();
    await dialog.getByRole('button', { name: 'PRÓXIMO' }).click();
    await dialog.getByText('O nome completo é obrigatório').waitFor();
    await dialog.getByText('CEP é obrigatório').waitFor();
    await screenshot(adminPage, 'billing-checkout-address-errors-1440');
    await dialog.getByLabel('Nome completo*').fill('Maria Silva');
    await dialog.getByLabel('Endereço*').fill('Rua das Flores, 100');
    await dialog.getByLabel('Cidade*').fill('Recife');
    await dialog.getByLabel('Estado').fill('PE');
    await dialog.getByLabel('CEP*').fill('50000-000');
    await dialog.getByRole('button', { name: 'PRÓXIMO' }).click();
    await dialog.getByRole('button', { name: 'PRÓXIMO' }).click();
    await dialog.getByTestId('checkout-review').waitFor();
    await dialog.getByRole('button', { name: 'PAGAR' }).click();

    const pix = dialog.getByTestId('pix-screen');
    await pix.getByRole('img', { name: 'QR code Pix' }).waitFor();
    const code = await pix.getByTestId('pix-code').inputValue();
    expect(code).toContain('br.gov.bcb.pix');
    expect(code).toContain('financeiro@atende.com.br');
    await pix.getByRole('button', { name: 'Copiar código' }).click();
    await pix.getByRole('button', { name: 'Copiado!' }).waitFor();
    await screenshot(adminPage, 'billing-pix-1440');
    await pix.getByRole('button', { name: 'Copiar código' }).waitFor({ timeout: 5000 });

    // The super user sees it among every company's invoices and confirms it.
    await superPage.goto('/financeiro');
    await superPage.getByRole('heading', { name: 'Faturas de todas as empresas' }).waitFor();
    const superRow = superPage.getByTestId(`invoice-${invoiceId}`);
    await superRow.getByRole('button', { name: 'Confirmar pagamento' }).click();
    await screenshot(superPage, 'billing-super-confirm-1000');
    await superPage.getByRole('dialog').getByRole('button', { name: 'Confirmar' }).click();
    await superRow.getByText('Pago', { exact: true }).waitFor();
    await screenshot(superPage, 'billing-super-confirmed-1000');

    // The admin's open checkout: the renewal message with the new due date, then `/`.
    const renewed = addMonths(dueDate, 1);
    const message = dialog.getByTestId('checkout-renewed');
    await message.waitFor();
    expect(await message.textContent()).toBe(
      `Pagamento confirmado! Sua assinatura foi renovada até ${dayText(renewed)}.`,
    );
    await screenshot(adminPage, 'billing-renewed-1440');
    await adminPage.waitForURL((url) => url.pathname === '/', { timeout: 10_000 });
    const [after] = (await server.app.ds.query(
      `SELECT "dueDate"::text AS d FROM companies WHERE id = $1`,
      [company.companyId],
    )) as { d: string }[];
    expect(after!.d).toBe(renewed);
  }, 120_000);

  it('Faturas, the checkout and Assinatura fit at 390, 1000 and 1440 px', async () => {
    // The next period's invoice, as the daily job writes it once the new due date is near.
    await generateInvoices(server.app.ds, new Date(Date.now() + 10 * 86_400_000));
    const [next] = (await server.app.ds.query(
      `SELECT id FROM invoices WHERE "companyId" = $1 AND status = 'open'`,
      [company.companyId],
    )) as { id: number }[];
    expect(next).toBeTruthy();
    for (const width of WIDTHS) {
      const page = await pageAt(width);
      await signIn(page, company.email, company.password);
      await page.goto('/financeiro');
      await page.getByTestId(`invoice-${invoiceId}`).getByText('Pago', { exact: true }).waitFor();
      const open = page.getByTestId(`invoice-${next!.id}`);
      await open.getByText('Em Aberto').waitFor();
      expect(await widest(page)).toBeLessThanOrEqual(width + 1);
      await screenshot(page, `billing-faturas-${width}`);
      await open.getByRole('button', { name: 'PAGAR' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByTestId('checkout-plan').waitFor();
      await screenshot(page, `billing-checkout-${width}`);
      await dialog.getByRole('button', { name: 'VOLTAR' }).click();
      await dialog.getByLabel('Nome completo*').waitFor();
      await screenshot(page, `billing-checkout-address-${width}`);
      await dialog.getByRole('button', { name: 'Fechar' }).click();
      await page.goto('/subscription');
      await page.getByRole('heading', { name: 'Assinatura' }).waitFor();
      await page.getByTestId('subscription-days').waitFor();
      expect(await widest(page)).toBeLessThanOrEqual(width + 1);
      await screenshot(page, `billing-subscription-${width}`);
      await page.goto('/financeiro');
      await page.getByRole('heading', { name: 'Faturas' }).waitFor();
      await page.context().close();
    }
  }, 120_000);
});
