import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { addLocalDays, CHECKOUT_MESSAGES, checkoutAddress } from '@atende/shared';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { admin, openPage, signedIn, writes } from '../../../../test/pages';
import type { HttpRequest } from '../../platform';
import { COPY_RESET_MS } from './PixScreen';
import { RENEWED_REDIRECT_MS } from './CheckoutDialog';

const now = Date.now();
const invoice = (id: number, status: 'open' | 'paid', dueInDays: number, extra = {}) => ({
  id,
  companyId: 4,
  detail: 'Plano Ouro',
  status,
  value: '149.90',
  dueDate: addLocalDays(now, dueInDays),
  paidAt: status === 'paid' ? new Date(now).toISOString() : null,
  createdAt: new Date(now).toISOString(),
  ...extra,
});
const ROWS = [invoice(1, 'paid', -10), invoice(2, 'open', -2), invoice(3, 'open', 0)];
// A real BR Code (static, pix-utils checked on the server side); only shown and copied here.
const BR_CODE =
  '00020101021226440014br.gov.bcb.pix0117pix@atende.com.br5204000053039865406149.905802BR5906Atende6009Sao Paulo62290525ABCDEF0123456789ABCDEF01263047A1B';

function respond(req: HttpRequest) {
  if (req.path === '/invoices/all' && req.method === 'GET')
    return { status: 200, data: { invoices: ROWS, count: 3, hasMore: false } };
  if (req.path === '/subscription' && req.method === 'POST')
    return {
      status: 200,
      data: {
        invoiceId: 2,
        valor: { original: '149.90' },
        qrcode: { qrcode: BR_CODE },
        provider: 'static-pix',
      },
    };
  if (req.path === '/invoices/2/confirm' && req.method === 'POST')
    return { status: 200, data: { outcome: 'applied', dueDate: addLocalDays(now, 30) } };
  return undefined;
}

let copied: string[] = [];
beforeEach(() => {
  copied = [];
  Object.defineProperty(navigator, 'clipboard', {
    configurable: true,
    value: { writeText: (text: string) => Promise.resolve(void copied.push(text)) },
  });
});

async function openCheckout() {
  const platform = signedIn(admin(), respond);
  await openPage('/financeiro');
  const row = await screen.findByTestId('invoice-2');
  fireEvent.click(within(row).getByRole('button', { name: 'PAGAR' }));
  return { ...platform, dialog: await screen.findByRole('dialog') };
}

const fill = (dialog: HTMLElement, label: string, value: string) =>
  fireEvent.change(within(dialog).getByLabelText(label), { target: { value } });

// The page's chunk, loaded once before the first test opens it (a cold import is slow).
beforeAll(async () => {
  await import('./FinanceiroPage');
}, 60_000);

describe('Faturas page', () => {
  it("shows 'Pago', 'Vencido', 'Em Aberto' by the admin §4 rule, tints overdue rows, PAGAR on unpaid", async () => {
    signedIn(admin(), respond);
    await openPage('/financeiro');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Faturas');
    const table: [number, string, string, boolean][] = [
      [1, 'paid', 'Pago', false],
      [2, 'overdue', 'Vencido', true],
      [3, 'open', 'Em Aberto', true],
    ];
    for (const [id, status, label, payable] of table) {
      const row = await screen.findByTestId(`invoice-${id}`);
      expect(row.getAttribute('data-status')).toBe(status);
      expect(within(row).getByText(label)).toBeTruthy();
      expect(!!within(row).queryByRole('button', { name: 'PAGAR' })).toBe(payable);
      const tint = getComputedStyle(row).backgroundColor;
      if (status === 'overdue') expect(tint).not.toMatch(/^(|transparent|rgba\(0, 0, 0, 0\))$/);
      else expect(tint).toMatch(/^(|transparent|rgba\(0, 0, 0, 0\))$/);
    }
    expect(within(screen.getByTestId('invoice-2')).getByText('R$ 149,90')).toBeTruthy();
  });

  it('the checkout starts at step 1 (Personalizar) of Dados, Personalizar, Revisar', async () => {
    const { dialog } = await openCheckout();
    const steps = within(dialog).getAllByText(/^(Dados|Personalizar|Revisar)$/);
    expect(steps.map((s) => s.textContent)).toEqual(['Dados', 'Personalizar', 'Revisar']);
    const active = dialog.querySelector('.MuiStepLabel-label.Mui-active');
    expect(active?.textContent).toBe('Personalizar');
    expect(within(dialog).getByTestId('checkout-plan').textContent).toContain('Plano Ouro');
  });

  it("the address step says admin §5's messages and sends nothing", async () => {
    const { dialog, requests } = await openCheckout();
    fireEvent.click(within(dialog).getByRole('button', { name: 'VOLTAR' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'PRÓXIMO' }));
    for (const text of [
      'O nome completo é obrigatório',
      'O Endereço é obrigatório',
      'A cidade é obrigatória',
      'CEP é obrigatório',
    ]) {
      expect(await within(dialog).findByText(text)).toBeTruthy();
    }
    fill(dialog, 'Nome completo*', 'Maria Silva');
    fill(dialog, 'Endereço*', 'Rua A, 1');
    fill(dialog, 'Cidade*', 'Recife');
    fill(dialog, 'CEP*', '5000');
    fireEvent.click(within(dialog).getByRole('button', { name: 'PRÓXIMO' }));
    expect(await within(dialog).findByText('Formato de CEP inválido')).toBeTruthy();
    expect(within(dialog).queryByText('O nome completo é obrigatório')).toBeNull();
    expect(writes(requests)).toEqual([]);
  });

  it('the address rule, as a table (every message of admin §5, country included)', () => {
    const ok = {
      firstName: 'Maria',
      address2: 'Rua A',
      city: 'Recife',
      zipcode: '50000-000',
      country: 'Brasil',
    };
    const cases: [Partial<typeof ok>, string | null][] = [
      [{}, null],
      [{ firstName: ' ' }, CHECKOUT_MESSAGES.firstName],
      [{ address2: '' }, CHECKOUT_MESSAGES.address2],
      [{ city: '' }, CHECKOUT_MESSAGES.city],
      [{ zipcode: '' }, CHECKOUT_MESSAGES.zipcode],
      [{ zipcode: '5000000' }, CHECKOUT_MESSAGES.zipcodeFormat],
      [{ zipcode: '50000000' }, null],
      [{ country: '' }, CHECKOUT_MESSAGES.country],
    ];
    for (const [change, message] of cases) {
      const parsed = checkoutAddress.safeParse({ ...ok, ...change });
      expect(parsed.success ? null : parsed.error.issues[0]!.message).toBe(message);
    }
    expect(CHECKOUT_MESSAGES.firstName).toBe('O nome completo é obrigatório');
    expect(CHECKOUT_MESSAGES.zipcode).toBe('CEP é obrigatório');
  });

  it('Revisar posts only the invoice, shows the Pix; the copy button resets after 1 s; the payment event renews and goes to / after 4 s', async () => {
    const { dialog, requests, serverEmits } = await openCheckout();
    fireEvent.click(within(dialog).getByRole('button', { name: 'VOLTAR' }));
    fill(dialog, 'Nome completo*', 'Maria Silva');
    fill(dialog, 'Endereço*', 'Rua A, 1');
    fill(dialog, 'Cidade*', 'Recife');
    fill(dialog, 'CEP*', '50000-000');
    fireEvent.click(within(dialog).getByRole('button', { name: 'PRÓXIMO' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'PRÓXIMO' }));
    expect(await within(dialog).findByTestId('checkout-review')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'PAGAR' }));

    const pix = await within(dialog).findByTestId('pix-screen');
    expect(writes(requests)).toEqual([
      expect.objectContaining({ method: 'POST', path: '/subscription', body: { invoiceId: 2 } }),
    ]);
    expect(
      await screen.findByText(
        'Assinatura realizada com sucesso!, aguardando a realização do pagamento',
      ),
    ).toBeTruthy();
    expect(within(pix).getByTestId('pix-value').textContent).toMatch(/^Valor: R\$\s149,90$/);
    expect((within(pix).getByTestId('pix-code') as HTMLTextAreaElement).value).toBe(BR_CODE);
    expect(await within(pix).findByRole('img', { name: 'QR code Pix' })).toBeTruthy();

    // Copy: 'Copiado!' at once, back to 'Copiar código' one second later.
    const clickedAt = Date.now();
    fireEvent.click(within(pix).getByRole('button', { name: 'Copiar código' }));
    expect(await within(pix).findByRole('button', { name: 'Copiado!' })).toBeTruthy();
    expect(copied).toEqual([BR_CODE]);
    // (The upper bound is the wait's; a loaded machine delays timers, never fires them early.)
    await within(pix).findByRole('button', { name: 'Copiar código' }, { timeout: 8000 });
    expect(Date.now() - clickedAt).toBeGreaterThanOrEqual(COPY_RESET_MS - 20);

    // The company's payment event: the renewal message with the new due date, then `/`.
    const newDue = addLocalDays(now, 31);
    const emittedAt = Date.now();
    act(() =>
      serverEmits('company-4-payment', {
        action: 'CONCLUIDA',
        company: { id: 4, dueDate: newDue },
      }),
    );
    const [y, m, d] = newDue.split('-');
    expect((await within(dialog).findByTestId('checkout-renewed')).textContent).toBe(
      `Pagamento confirmado! Sua assinatura foi renovada até ${d}/${m}/${y}.`,
    );
    expect(screen.getByTestId('location').textContent).toBe('/financeiro');
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/'), {
      timeout: RENEWED_REDIRECT_MS + 10_000,
    });
    expect(Date.now() - emittedAt).toBeGreaterThanOrEqual(RENEWED_REDIRECT_MS - 20);
  }, 60_000);

  it("the super user sees every company's invoices and confirms a payment", async () => {
    const { requests } = signedIn(admin({ super: true }), (req) =>
      req.path === '/invoices/all'
        ? {
            status: 200,
            data: {
              invoices: ROWS.map((r) => ({ ...r, companyName: 'Empresa A' })),
              count: 3,
              hasMore: false,
            },
          }
        : respond(req),
    );
    await openPage('/financeiro');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(
      'Faturas de todas as empresas',
    );
    const row = await screen.findByTestId('invoice-2');
    expect(within(row).getByText('Empresa A')).toBeTruthy();
    expect(within(row).queryByRole('button', { name: 'PAGAR' })).toBeNull();
    expect(within(screen.getByTestId('invoice-1')).queryByRole('button')).toBeNull();
    fireEvent.click(within(row).getByRole('button', { name: 'Confirmar pagamento' }));
    const confirm = await screen.findByRole('dialog');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Confirmar' }));
    await waitFor(() =>
      expect(writes(requests)).toEqual([
        expect.objectContaining({ method: 'POST', path: '/invoices/2/confirm' }),
      ]),
    );
  });
});
