/**
 * Contact lists and file lists in Chromium (issue 16): an admin creates a list, imports a
 * 10,000-row spreadsheet and watches its progress fill in, downloads nothing by hand but sees the
 * outcome and the error-report button, searches the items; then creates a file list with a file.
 * Screenshots at 390, 1000 and 1440 px.
 */
import * as XLSX from '@e965/xlsx';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, screenshot, signIn } from './browser.js';
import { hasChromium, PNG, startWorld, until, type World } from './support.js';

const WIDTHS = [390, 1000, 1440] as const;
const heightOf = (width: number) => (width < 600 ? 844 : 800);

/** 10,000 rows: 9,990 people, 5 repeats (one in the 8-digit form) and 5 bad numbers. */
function bigSheet(): Buffer {
  const rows: (string | number)[][] = [['Nome', 'Número', 'E-mail']];
  for (let i = 0; i < 9_990; i++) rows.push([`Cliente ${i}`, 11_980_000_000 + i, '']);
  for (let i = 0; i < 4; i++) rows.push([`Repetido ${i}`, 11_980_000_000 + i, '']);
  rows.push(['Oito dígitos', '(11) 8000-0005', '']); // Cliente 5 without the 9th digit
  for (let i = 0; i < 5; i++) rows.push([`Inválido ${i}`, `12${i}`, '']);
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'Contatos');
  return XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
}

describe.skipIf(!hasChromium)('contact lists and file lists (Chromium)', () => {
  let world: World;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    world = await startWorld();
    browser = await launchBrowser();
    const context = await newContext(browser, { baseUrl: world.server.url, width: 1440 });
    page = await context.newPage();
    page.on('pageerror', (error) => console.warn(`[browser] ${error.message}`));
    await signIn(page, world.admin.email, world.admin.password);
    // The campaign routes exist only with the browser-storage flag cshow (core §2).
    await page.evaluate(() => localStorage.setItem('cshow', '1'));
  }, 180_000);

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && page) {
      await screenshot(
        page,
        `contact-lists-failed-${ctx.task.name.slice(0, 30).replace(/\W+/g, '-')}`,
      );
    }
  });

  afterAll(async () => {
    await browser?.close();
    await world?.server.close();
  });

  it('creates a list and imports a 10,000-row spreadsheet with its progress shown', async () => {
    await page.goto('/contact-lists');
    await page.getByRole('button', { name: 'Adicionar' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Nome').fill('Clientes de São Paulo');
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    const row = page.getByRole('row', { name: /Clientes de São Paulo/ });
    await row.waitFor();
    await row.getByRole('button', { name: 'Ver contatos' }).click();
    await page.waitForURL(/\/contact-lists\/\d+\/contacts$/);
    const listId = Number(/contact-lists\/(\d+)/.exec(page.url())![1]);

    // Every state the progress banner takes is recorded, so a fast import still shows its steps.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { importSeen: string[] }).importSeen = seen;
      const record = () => {
        const el = document.querySelector('[data-testid="import-progress"]');
        const bar = el?.querySelector('[role="progressbar"]');
        const state = el
          ? `${el.getAttribute('data-status')}:${bar?.getAttribute('aria-valuenow') ?? ''}`
          : '';
        if (state && seen[seen.length - 1] !== state) seen.push(state);
      };
      new MutationObserver(record).observe(document.body, {
        subtree: true,
        childList: true,
        attributes: true,
        attributeFilter: ['data-status', 'aria-valuenow'],
      });
    });

    await page.getByTestId('sheet-input').setInputFiles({
      name: 'clientes.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: bigSheet(),
    });
    const confirm = page.getByRole('dialog');
    await confirm.getByText('Deseja importar o arquivo clientes.xlsx?', { exact: false }).waitFor();
    await confirm.getByRole('button', { name: 'Baixar planilha de exemplo' }).waitFor();
    await screenshot(page, 'contact-lists-import-confirm-1440');
    await confirm.getByRole('button', { name: 'Importar' }).click();

    const banner = page.getByTestId('import-progress');
    await banner.waitFor();
    await page.locator('[data-testid="import-progress"][data-status="done"]').waitFor({
      timeout: 120_000,
    });
    const seen = await page.evaluate(
      () => (window as unknown as { importSeen: string[] }).importSeen,
    );
    // It was queued or running with a bar before it was done, and the bar moved forward.
    expect(seen.some((s) => s.startsWith('queued') || s.startsWith('running'))).toBe(true);
    expect(seen[seen.length - 1]).toMatch(/^done/);
    const percents = seen.flatMap((s) => {
      const match = /^running:(\d+)$/.exec(s);
      return match ? [Number(match[1])] : [];
    });
    expect(percents).toEqual([...percents].sort((x, y) => x - y));
    await expect
      .poll(() => banner.textContent())
      .toContain('concluída: 9990 novos, 0 atualizados, 5 repetidos, 5 com erro');
    await banner.getByRole('button', { name: 'Baixar relatório de erros' }).waitFor();

    // The table fills (20 at a time), and the search finds one person by part of the number.
    await page
      .getByRole('row', { name: /Cliente 0 / })
      .first()
      .waitFor();
    const count = await world.server.request('GET', `/contact-lists/${listId}`, {
      token: world.apiToken,
    });
    expect(count.body.contactsCount).toBe(9_990);
    await page.getByRole('textbox', { name: /Pesquisar/ }).fill('Cliente 1234');
    await page.getByRole('row', { name: /Cliente 1234/ }).waitFor();
    await until(async () => (await page.getByRole('row').count()) === 2 || undefined, 10_000);

    // Screens at the three widths: header, banner and table fit.
    await page.getByRole('textbox', { name: /Pesquisar/ }).fill('');
    await page
      .getByRole('row', { name: /Cliente 0 / })
      .first()
      .waitFor();
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: heightOf(width) });
      await page.reload();
      await page
        .getByRole('row', { name: /Cliente 0 / })
        .first()
        .waitFor();
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - window.innerWidth,
      );
      expect(overflow).toBeLessThanOrEqual(1);
      await screenshot(page, `contact-list-items-${width}`);
    }
    await page.setViewportSize({ width: 1440, height: 800 });
    await page.goto('/contact-lists');
    await page.getByRole('row', { name: /Clientes de São Paulo.*9990/ }).waitFor();
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: heightOf(width) });
      await page.reload();
      await page.getByRole('row', { name: /Clientes de São Paulo/ }).waitFor();
      await screenshot(page, `contact-lists-${width}`);
    }
    await page.setViewportSize({ width: 1440, height: 800 });
  }, 240_000);

  it('creates a file list with a file, stored and listed live', async () => {
    await page.goto('/files');
    await page.getByRole('button', { name: 'Adicionar' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Nome', { exact: true }).fill('Ca');
    await dialog.getByLabel('Mensagem').fill('Segue nosso catálogo');
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await dialog.getByText('nome muito curto').waitFor();
    await dialog.getByLabel('Nome', { exact: true }).fill('Catálogo 2025');
    await dialog.getByTestId('file-option-add').click();
    await dialog.getByTestId('file-option-input-0').setInputFiles({
      name: 'capa.png',
      mimeType: 'image/png',
      buffer: PNG,
    });
    await expect.poll(() => dialog.getByLabel('Nome do arquivo').inputValue()).toBe('capa.png');
    await screenshot(page, 'files-dialog-1440');
    await dialog.getByRole('button', { name: 'Salvar' }).click();
    await page.getByRole('row', { name: /Catálogo 2025/ }).waitFor();
    const lists = await world.server.request('GET', '/files?searchParam=Cat', {
      token: world.apiToken,
    });
    const saved = lists.body.files.find((f: { name: string }) => f.name === 'Catálogo 2025');
    expect(saved.options).toHaveLength(1);
    expect(saved.options[0]).toMatchObject({ name: 'capa.png', mediaType: 'image' });
    expect(saved.options[0].mediaUrl).toMatch(/^\/media\//);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: heightOf(width) });
      await page.reload();
      await page.getByRole('row', { name: /Catálogo 2025/ }).waitFor();
      await screenshot(page, `files-${width}`);
    }
    await page.setViewportSize({ width: 1440, height: 800 });
  }, 120_000);
});
