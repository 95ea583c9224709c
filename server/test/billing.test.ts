// Billing on the real Postgres and Redis (issue 15): the daily invoice job is idempotent across
// runs and a restart, `GET /invoices/all` semantics are scoped to the company, the checkout's Pix
// code carries the server's amount, and a payment counts once: forged webhooks change nothing,
// three deliveries or two at once extend the due date once, an amount below the invoice pays
// nothing, and the payment event reaches only the paying company.
import {
  addLocalDays,
  addMonths,
  DEFAULT_TIME_ZONE,
  localDay,
  SECRET_MASK,
  type ErrorCode,
} from '@atende/shared';
import { hasError, parsePix, PixElementType } from 'pix-utils';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { TenantScope } from '../src/http/tenant.js';
import { AppError } from '../src/http/errors.js';
import { sweepDurable } from '../src/jobs/durable.js';
import { logger } from '../src/logger.js';
import { startServer, type RunningServer } from '../src/server.js';
import { checkoutInvoice } from '../src/modules/billing/checkout.js';
import { setBillingClock } from '../src/modules/billing/clock.js';
import {
  generateInvoices,
  INVOICE_JOB_KIND,
  invoiceJobs,
  listInvoices,
  nextInvoiceRun,
} from '../src/modules/billing/invoices.js';
import {
  applyPayment,
  confirmManualPayment,
  handlePaymentWebhook,
} from '../src/modules/billing/payments.js';
import {
  billingProviderView,
  saveBillingProvider,
} from '../src/modules/billing/provider-config.js';
import { chargeCheckJobs, CHECK_FIRST_MS } from '../src/modules/billing/reconcile.js';
import { changedTables, fingerprint } from './db-snapshot.js';
import { createCompanyWithAdmin } from './fixtures.js';
import { startTestServer, testConfig, type Session, type TestServer } from './harness.js';
import { eventually, listen, type Listening } from './socket-client.js';
import { startAsaasStandin, type AsaasStandin } from './standins/asaas.js';

let server: TestServer;
let clock = Date.now();
const sockets: Listening[] = [];

beforeAll(async () => {
  setBillingClock(() => new Date(clock));
  server = await startTestServer();
});
afterAll(async () => {
  for (const s of sockets) s.close();
  setBillingClock(undefined);
  await server?.close();
});
afterEach(() => vi.restoreAllMocks());

const today = () => localDay(clock, DEFAULT_TIME_ZONE);
const inDays = (n: number) => addLocalDays(Date.now(), n);

interface Company {
  companyId: number;
  admin: Session;
}

async function company(dueInDays: number): Promise<Company> {
  const made = await createCompanyWithAdmin(server, { dueDate: inDays(dueInDays) });
  return { companyId: made.companyId, admin: made.admin };
}

const q = <T = Record<string, unknown>>(sql: string, params: unknown[] = []) =>
  server.app.ds.query(sql, params) as Promise<T[]>;

const invoicesOf = (companyId: number) =>
  q<{ id: number; dueDate: string; value: string; detail: string; status: string; txid: string }>(
    `SELECT id, "dueDate"::text AS "dueDate", value, detail, status, txid FROM invoices
      WHERE "companyId" = $1 ORDER BY "dueDate"`,
    [companyId],
  );
const dueDateOf = async (companyId: number) =>
  (
    await q<{ d: string }>(`SELECT "dueDate"::text AS d FROM companies WHERE id = $1`, [companyId])
  )[0]!.d;
const paymentsOf = (companyId: number) =>
  q(`SELECT * FROM payments WHERE "companyId" = $1`, [companyId]);

/** The invoice of a company, generated now. */
async function invoiceOf(c: Company) {
  await generateInvoices(server.app.ds, new Date(clock));
  const [invoice] = await invoicesOf(c.companyId);
  if (!invoice) throw new Error(`no invoice for company ${c.companyId}`);
  return invoice;
}

/** Polls an async condition until it holds (a signal, not a fixed sleep). */
async function waitFor(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

const scopeOf = (c: Company) => new TenantScope(c.companyId, server.app.ds);

async function errorOf(run: () => Promise<unknown>): Promise<ErrorCode> {
  try {
    await run();
  } catch (err) {
    if (err instanceof AppError) return err.code;
    throw err;
  }
  throw new Error('expected an error');
}

async function listening(c: Company): Promise<Listening> {
  const socket = await listen(server.url, c.admin.token);
  sockets.push(socket);
  return socket;
}
const paymentEvents = (s: Listening) => s.received.filter((e) => e.event.endsWith('-payment'));

describe('invoice generation (durable daily job)', () => {
  it('writes one invoice per company and due date, from the plan, across runs and a restart', async () => {
    clock = Date.now();
    const soon = await company(10);
    const later = await company(40);
    const inactive = await company(5);
    await q('UPDATE companies SET status = false WHERE id = $1', [inactive.companyId]);
    const [plan] = await q<{ name: string; value: string }>(
      'SELECT p.name, p.value FROM plans p JOIN companies c ON c."planId" = p.id WHERE c.id = $1',
      [soon.companyId],
    );

    // The row the worker made at boot runs once and moves to the next 03:00 (a signal: its due
    // time passes now).
    const jobRows = () =>
      q<{ dueAt: Date }>('SELECT "dueAt" FROM durable_jobs WHERE kind = $1', [INVOICE_JOB_KIND]);
    const movedTo = (at: Date) =>
      waitFor(async () => {
        const rows = await jobRows();
        return rows.length === 1 && new Date(rows[0]!.dueAt).getTime() === at.getTime();
      });
    await waitFor(async () => {
      const [row] = await jobRows();
      return !!row && new Date(row.dueAt).getTime() > Date.now();
    });

    // Day 1, after the run time: the job fires (this sweep, or the worker's own sweeper, which
    // reads the same clock) and writes the invoice of the company due soon.
    clock = nextInvoiceRun(new Date()).getTime() + 60_000;
    await sweepDurable(server.app, invoiceJobs);
    await movedTo(nextInvoiceRun(new Date(clock)));
    const first = await invoicesOf(soon.companyId);
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({
      dueDate: inDays(10),
      value: plan!.value,
      detail: plan!.name,
      status: 'open',
    });
    expect(first[0]!.txid).toMatch(/^[A-Z0-9]{25}$/);
    expect(await invoicesOf(later.companyId)).toHaveLength(0);
    expect(await invoicesOf(inactive.companyId)).toHaveLength(0);
    // The job row moved to the next day: sweeping again fires nothing.
    expect(await sweepDurable(server.app, invoiceJobs)).toBe(0);

    // A second run by hand (another process, a retry) writes nothing.
    expect(await generateInvoices(server.app.ds, new Date(clock))).toBe(0);

    // Day 2: it fires again and still writes nothing new.
    clock = nextInvoiceRun(new Date(clock)).getTime() + 60_000;
    await sweepDurable(server.app, invoiceJobs);
    await movedTo(nextInvoiceRun(new Date(clock)));
    expect(await invoicesOf(soon.companyId)).toEqual(first);

    // A restart: a new process on the same database keeps the one job row and the one invoice.
    const restarted: RunningServer = await startServer(testConfig(server.database));
    try {
      clock = nextInvoiceRun(new Date(clock)).getTime() + 60_000;
      await sweepDurable(restarted.app, invoiceJobs);
      await movedTo(nextInvoiceRun(new Date(clock)));
      expect(await invoicesOf(soon.companyId)).toEqual(first);
    } finally {
      await restarted.close();
    }
    clock = Date.now();

    // The company 10 days out is now 7 days out of the clock: still one invoice; the one 40 days
    // out is 37 away, beyond the 30-day lead.
    expect(await invoicesOf(later.companyId)).toHaveLength(0);
  });

  it('the unique (companyId, dueDate) index refuses a second invoice for the same due date', async () => {
    clock = Date.now();
    const c = await company(3);
    const invoice = await invoiceOf(c);
    await expect(
      q(
        `INSERT INTO invoices ("companyId", detail, value, "dueDate", txid)
         VALUES ($1, 'x', 1, $2, 'DUPLICATE1')`,
        [c.companyId, invoice.dueDate],
      ),
    ).rejects.toThrow(/invoices_company_due/);
  });
});

describe('GET /invoices/all semantics', () => {
  it('pages of 20 with hasMore, search on the detail, scoped to the company; the super user sees all', async () => {
    clock = Date.now();
    // Due 60 days out: the generator leaves them alone while this test writes their invoices.
    const a = await company(60);
    const b = await company(60);
    for (let i = 0; i < 25; i++) {
      await q(
        `INSERT INTO invoices ("companyId", detail, value, "dueDate", txid)
         VALUES ($1, $2, 10, $3, $4)`,
        [
          a.companyId,
          i % 5 === 0 ? `Plano Ouro ${i}` : `Plano Prata ${i}`,
          inDays(-400 + i),
          `A${a.companyId}X${i}`,
        ],
      );
    }
    await q(
      `INSERT INTO invoices ("companyId", detail, value, "dueDate", txid) VALUES ($1, 'Plano Ouro B', 10, $2, $3)`,
      [b.companyId, inDays(-30), `B${b.companyId}X1`],
    );

    const asA = { scope: scopeOf(a), super: false };
    const page1 = await listInvoices(server.app, asA, { searchParam: '', pageNumber: 1 });
    expect(page1.invoices).toHaveLength(20);
    expect(page1.hasMore).toBe(true);
    expect(page1.count).toBe(25);
    // Newest due date first.
    expect(page1.invoices[0]!.dueDate).toBe(inDays(-376));
    const page2 = await listInvoices(server.app, asA, { searchParam: '', pageNumber: 2 });
    expect(page2.invoices).toHaveLength(5);
    expect(page2.hasMore).toBe(false);
    expect(new Set([...page1.invoices, ...page2.invoices].map((i) => i.companyId))).toEqual(
      new Set([a.companyId]),
    );
    expect(page1.invoices[0]).not.toHaveProperty('companyName');

    const ouro = await listInvoices(server.app, asA, { searchParam: 'ouro', pageNumber: 1 });
    expect(ouro.invoices.map((i) => i.detail).sort()).toEqual([
      'Plano Ouro 0',
      'Plano Ouro 10',
      'Plano Ouro 15',
      'Plano Ouro 20',
      'Plano Ouro 5',
    ]);
    // LIKE wildcards in the search are literal.
    expect((await listInvoices(server.app, asA, { searchParam: '%', pageNumber: 1 })).count).toBe(
      0,
    );

    // Company B never sees A's invoices, with or without a search.
    const asB = { scope: scopeOf(b), super: false };
    const ofB = await listInvoices(server.app, asB, { searchParam: 'Ouro', pageNumber: 1 });
    expect(ofB.invoices.map((i) => i.detail)).toEqual(['Plano Ouro B']);
    expect((await listInvoices(server.app, asB, { searchParam: '', pageNumber: 1 })).count).toBe(1);

    // The super user sees every company's, with the company's name.
    const all = await listInvoices(
      server.app,
      { scope: new TenantScope(1, server.app.ds), super: true },
      { searchParam: 'Plano Ouro', pageNumber: 1 },
    );
    expect(new Set(all.invoices.map((i) => i.companyId))).toEqual(
      new Set([a.companyId, b.companyId]),
    );
    expect(
      all.invoices.every((i) => typeof i.companyName === 'string' && i.companyName.length > 0),
    ).toBe(true);
  });
});

describe('static Pix key with manual confirmation', () => {
  beforeAll(async () => {
    await saveBillingProvider(server.app, {
      provider: 'static-pix',
      pixKey: 'pix@atende.com.br',
      merchantName: 'Atende Plataforma Digital de Atendimento',
      merchantCity: 'São Paulo',
    });
  });

  it('refuses a key that is not a Pix key, and a name with nothing left in ASCII', async () => {
    expect(
      await errorOf(() =>
        saveBillingProvider(server.app, {
          provider: 'static-pix',
          pixKey: 'chave',
          merchantName: 'A',
          merchantCity: 'B',
        }),
      ),
    ).toBe('ERR_BILLING_INVALID_SETTINGS');
    expect(
      await errorOf(() =>
        saveBillingProvider(server.app, {
          provider: 'static-pix',
          pixKey: '12345678901',
          merchantName: '日本',
          merchantCity: 'B',
        }),
      ),
    ).toBe('ERR_BILLING_INVALID_SETTINGS');
    // The valid settings stay active.
    expect((await billingProviderView(server.app)).find((p) => p.active)?.settings.pixKey).toBe(
      'pix@atende.com.br',
    );
  });

  it("the checkout's code carries the invoice's value and txid; B cannot check out A's invoice", async () => {
    clock = Date.now();
    const a = await company(12);
    const b = await company(12);
    const invoice = await invoiceOf(a);
    const answer = await checkoutInvoice(server.app, scopeOf(a), invoice.id);
    expect(answer.valor.original).toBe(invoice.value);
    const parsed = parsePix(answer.qrcode.qrcode);
    if (hasError(parsed)) throw new Error(parsed.message);
    expect(parsed).toMatchObject({
      type: PixElementType.STATIC,
      pixKey: 'pix@atende.com.br',
      transactionAmount: Number(invoice.value),
      txid: invoice.txid,
      merchantName: 'Atende Plataforma Digital', // cut to 25
      merchantCity: 'Sao Paulo',
    });
    // Opening it again shows the same code; one charge row.
    expect((await checkoutInvoice(server.app, scopeOf(a), invoice.id)).qrcode.qrcode).toBe(
      answer.qrcode.qrcode,
    );
    expect(
      await q('SELECT 1 FROM invoice_charges WHERE "invoiceId" = $1', [invoice.id]),
    ).toHaveLength(1);

    expect(await errorOf(() => checkoutInvoice(server.app, scopeOf(b), invoice.id))).toBe(
      'ERR_NO_INVOICE_FOUND',
    );
    expect(await errorOf(() => checkoutInvoice(server.app, scopeOf(a), 2_147_000_000))).toBe(
      'ERR_NO_INVOICE_FOUND',
    );
  });

  it('the super user confirms: paid, due date extended from the later day, event to A only', async () => {
    clock = Date.now();
    const a = await company(8);
    const b = await company(8);
    const invoice = await invoiceOf(a);
    const before = await dueDateOf(a.companyId);
    const socketA = await listening(a);
    const socketB = await listening(b);

    // Not the super user: refused, nothing written.
    const snapshot = await fingerprint(server.app.ds);
    expect(
      await errorOf(() =>
        confirmManualPayment(server.app, { super: false }, { invoiceId: invoice.id }),
      ),
    ).toBe('ERR_NO_PERMISSION');
    // Below the invoice: refused, nothing written.
    expect(
      await errorOf(() =>
        confirmManualPayment(
          server.app,
          { super: true },
          { invoiceId: invoice.id, amount: '0.01' },
        ),
      ),
    ).toBe('ERR_PAYMENT_BELOW_INVOICE');
    expect(changedTables(snapshot, await fingerprint(server.app.ds))).toEqual([]);

    // Paid 12 days from now (4 days late): one month from the payment day, not the due date.
    clock = Date.now() + 12 * 86_400_000;
    const result = await confirmManualPayment(
      server.app,
      { super: true },
      { invoiceId: invoice.id, endToEndId: 'E12345678202601011200abcdefghijk' },
    );
    const expected = addMonths(today(), 1);
    expect(result).toMatchObject({ outcome: 'applied', companyId: a.companyId, dueDate: expected });
    expect(await dueDateOf(a.companyId)).toBe(expected);
    expect(expected > addMonths(before, 1)).toBe(true);
    expect((await invoicesOf(a.companyId))[0]!.status).toBe('paid');

    await eventually(() => paymentEvents(socketA).length === 1);
    expect(paymentEvents(socketA)[0]).toEqual({
      event: `company-${a.companyId}-payment`,
      payload: {
        action: 'CONCLUIDA',
        company: expect.objectContaining({ id: a.companyId, dueDate: expected }),
      },
    });
    // B's socket hears its own payment (after A's was sent) and never A's.
    const invoiceB = await invoiceOf(b);
    await confirmManualPayment(server.app, { super: true }, { invoiceId: invoiceB.id });
    await eventually(() => paymentEvents(socketB).length === 1);
    expect(paymentEvents(socketB)[0]!.event).toBe(`company-${b.companyId}-payment`);
    expect(socketB.received.some((e) => e.event.startsWith(`company-${a.companyId}-`))).toBe(false);
    expect(paymentEvents(socketA)).toHaveLength(1);

    // Confirming again changes nothing.
    expect(
      await errorOf(() =>
        confirmManualPayment(server.app, { super: true }, { invoiceId: invoice.id }),
      ),
    ).toBe('ERR_INVOICE_ALREADY_PAID');
    expect(await dueDateOf(a.companyId)).toBe(expected);
    expect(await paymentsOf(a.companyId)).toHaveLength(1);
    // A paid invoice has no checkout.
    expect(await errorOf(() => checkoutInvoice(server.app, scopeOf(a), invoice.id))).toBe(
      'ERR_INVOICE_ALREADY_PAID',
    );
  });

  it('an early payment keeps the days left: one month from the due date', async () => {
    clock = Date.now();
    const c = await company(9);
    const invoice = await invoiceOf(c);
    const before = await dueDateOf(c.companyId);
    await confirmManualPayment(server.app, { super: true }, { invoiceId: invoice.id });
    expect(await dueDateOf(c.companyId)).toBe(addMonths(before, 1));
  });

  it('a recurrence of TRIMESTRAL extends three months', async () => {
    clock = Date.now();
    const c = await company(9);
    await q(`UPDATE companies SET recurrence = 'TRIMESTRAL' WHERE id = $1`, [c.companyId]);
    const invoice = await invoiceOf(c);
    const before = await dueDateOf(c.companyId);
    await confirmManualPayment(server.app, { super: true }, { invoiceId: invoice.id });
    expect(await dueDateOf(c.companyId)).toBe(addMonths(before, 3));
  });
});

describe('Asaas (against a local stand-in of its API)', () => {
  const webhookToken = `whsec-${'x'.repeat(40)}`;
  let asaas: AsaasStandin;
  let logged: string[] = [];

  const spyLogs = () => {
    logged = [];
    for (const level of ['info', 'warn', 'error', 'debug'] as const) {
      vi.spyOn(logger, level).mockImplementation(((...args: unknown[]) => {
        logged.push(JSON.stringify(args, (_k, v: unknown) => (v instanceof Error ? String(v) : v)));
      }) as never);
    }
  };
  /** A delivery with our token, or with `headers` as given (a forgery). */
  const deliver = (
    body: unknown,
    headers: Record<string, string> = { 'asaas-access-token': webhookToken },
  ) => handlePaymentWebhook(server.app, 'asaas', headers, body);

  /** A company with a CPF/CNPJ, its invoice and its Asaas charge. */
  async function charged(dueInDays = 10) {
    const c = await company(dueInDays);
    await q(`UPDATE companies SET document = '12.345.678/0001-99' WHERE id = $1`, [c.companyId]);
    const invoice = await invoiceOf(c);
    const answer = await checkoutInvoice(server.app, scopeOf(c), invoice.id);
    const [charge] = await q<{ providerChargeId: string }>(
      `SELECT "providerChargeId" FROM invoice_charges WHERE "invoiceId" = $1 AND provider = 'asaas'`,
      [invoice.id],
    );
    return { c, invoice, answer, paymentId: charge!.providerChargeId };
  }

  beforeAll(async () => {
    asaas = await startAsaasStandin();
    await saveBillingProvider(server.app, {
      provider: 'asaas',
      apiKey: asaas.apiKey,
      webhookToken,
      baseUrl: asaas.baseUrl,
    });
  });
  afterAll(() => asaas?.close());

  it('credentials are sealed at rest and never answered', async () => {
    const [row] = await q<{ settings: unknown; secret: string }>(
      `SELECT settings, secret FROM billing_providers WHERE provider = 'asaas'`,
    );
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(asaas.apiKey);
    expect(stored).not.toContain(webhookToken);
    expect(row!.secret).toMatch(/^v1\./);
    const view = JSON.stringify(await billingProviderView(server.app));
    expect(view).not.toContain(asaas.apiKey);
    expect(view).not.toContain(webhookToken);
    expect((await billingProviderView(server.app)).find((p) => p.provider === 'asaas')).toEqual({
      provider: 'asaas',
      active: true,
      settings: { baseUrl: asaas.baseUrl, apiKey: SECRET_MASK, webhookToken: SECRET_MASK },
    });
  });

  it('the checkout makes a customer and a PIX payment of the invoice value, and shows its code', async () => {
    clock = Date.now();
    const nodoc = await company(10);
    const nodocInvoice = await invoiceOf(nodoc);
    expect(await errorOf(() => checkoutInvoice(server.app, scopeOf(nodoc), nodocInvoice.id))).toBe(
      'ERR_BILLING_DOCUMENT_REQUIRED',
    );

    const { c, invoice, answer, paymentId } = await charged();
    const payment = asaas.payments.get(paymentId)!;
    expect(payment).toMatchObject({
      billingType: 'PIX',
      value: Number(invoice.value),
      dueDate: invoice.dueDate,
      externalReference: invoice.txid,
      status: 'PENDING',
    });
    expect(asaas.customers.get(payment.customer)).toMatchObject({
      cpfCnpj: '12345678000199',
      externalReference: `company-${c.companyId}`,
    });
    expect(answer.valor.original).toBe(invoice.value);
    expect(answer.qrcode.imagemQrcode).toBeTruthy();
    const parsed = parsePix(answer.qrcode.qrcode);
    if (hasError(parsed)) throw new Error(parsed.message);
    expect(parsed).toMatchObject({
      type: PixElementType.DYNAMIC,
      url: `pix.standin.local/qr/v2/${paymentId}`,
    });
    // The same customer is reused for the company's next invoice.
    expect(
      [...asaas.customers.values()].filter((x) => x.externalReference === `company-${c.companyId}`),
    ).toHaveLength(1);
  });

  it('a forged webhook is refused (401) and changes nothing', async () => {
    clock = Date.now();
    const { c, paymentId } = await charged();
    asaas.receive(paymentId);
    const before = await fingerprint(server.app.ds);
    const reads = asaas.calls.length;
    const forgeries: Record<string, string>[] = [
      {},
      { 'asaas-access-token': '' },
      { 'asaas-access-token': 'wrong' },
      { 'asaas-access-token': webhookToken.slice(0, -1) },
      { 'asaas-access-token': `${webhookToken}x` },
      { 'asaas-access-token': webhookToken.toUpperCase() },
      // The API key is not the webhook token; another header name does not count.
      { 'asaas-access-token': asaas.apiKey },
      { access_token: webhookToken },
      { authorization: `Bearer ${webhookToken}` },
    ];
    for (const headers of forgeries) {
      const err = await errorOf(() => deliver(asaas.event('PAYMENT_RECEIVED', paymentId), headers));
      expect(err).toBe('ERR_WEBHOOK_UNAUTHORIZED');
      expect(new AppError(err).status).toBe(401);
    }
    // Nothing was asked of the provider and nothing was written.
    expect(asaas.calls.length).toBe(reads);
    expect(changedTables(before, await fingerprint(server.app.ds))).toEqual([]);
    expect(await paymentsOf(c.companyId)).toHaveLength(0);
  });

  it('an authentic webhook for a charge the provider has not received changes nothing (re-read)', async () => {
    clock = Date.now();
    const { c, paymentId } = await charged();
    // The body claims RECEIVED; the provider says PENDING.
    const body = asaas.event('PAYMENT_RECEIVED', paymentId) as { payment: Record<string, unknown> };
    body.payment.status = 'RECEIVED';
    const before = await fingerprint(server.app.ds);
    expect((await deliver(body)).outcome).toBe('unpaid');
    expect(asaas.calls).toContain(`GET /v3/payments/${paymentId}`);
    expect(changedTables(before, await fingerprint(server.app.ds))).toEqual([]);
    expect(await paymentsOf(c.companyId)).toHaveLength(0);
    // Other events and charges that are not ours are acknowledged and ignored.
    expect((await deliver(asaas.event('PAYMENT_CREATED', paymentId))).outcome).toBe('ignored');
    expect(
      (await deliver({ event: 'PAYMENT_RECEIVED', payment: { id: 'pay_notours' } })).outcome,
    ).toBe('ignored');
    expect((await deliver({ hello: 'world' })).outcome).toBe('ignored');
  });

  it('three deliveries of one payment extend the due date once', async () => {
    clock = Date.now();
    const { c, invoice, paymentId } = await charged();
    const socket = await listening(c);
    const before = await dueDateOf(c.companyId);
    asaas.receive(paymentId);
    const outcomes = [];
    for (let i = 0; i < 3; i++) {
      outcomes.push((await deliver(asaas.event('PAYMENT_RECEIVED', paymentId))).outcome);
    }
    expect(outcomes).toEqual(['applied', 'duplicate', 'duplicate']);
    expect(await dueDateOf(c.companyId)).toBe(addMonths(before, 1));
    expect(await paymentsOf(c.companyId)).toHaveLength(1);
    expect((await invoicesOf(c.companyId)).find((i) => i.id === invoice.id)?.status).toBe('paid');
    // A CONFIRMED after RECEIVED for the same payment is the same payment.
    expect((await deliver(asaas.event('PAYMENT_CONFIRMED', paymentId))).outcome).toBe('duplicate');
    await eventually(() => paymentEvents(socket).length === 1);
    expect(await dueDateOf(c.companyId)).toBe(addMonths(before, 1));
  });

  it('two deliveries at once extend the due date once', async () => {
    clock = Date.now();
    const { c, paymentId } = await charged();
    const before = await dueDateOf(c.companyId);
    asaas.receive(paymentId);
    const results = await Promise.all([
      deliver(asaas.event('PAYMENT_RECEIVED', paymentId)),
      deliver(asaas.event('PAYMENT_RECEIVED', paymentId)),
      deliver(asaas.event('PAYMENT_CONFIRMED', paymentId)),
    ]);
    expect(results.map((r) => r.outcome).sort()).toEqual(['applied', 'duplicate', 'duplicate']);
    expect(await dueDateOf(c.companyId)).toBe(addMonths(before, 1));
    expect(await paymentsOf(c.companyId)).toHaveLength(1);
  });

  it('two different payments of one invoice at once: one extension, the other kept as surplus', async () => {
    clock = Date.now();
    const c = await company(10);
    const invoice = await invoiceOf(c);
    const before = await dueDateOf(c.companyId);
    const pay = (id: string) =>
      applyPayment(server.app, {
        invoiceId: invoice.id,
        provider: 'asaas',
        providerPaymentId: id,
        endToEndId: null,
        amount: invoice.value,
        paidAt: new Date(clock),
      });
    const results = await Promise.all([pay('pay_one'), pay('pay_two')]);
    expect(results.map((r) => r.outcome).sort()).toEqual(['applied', 'surplus']);
    expect(await dueDateOf(c.companyId)).toBe(addMonths(before, 1));
    const rows = await paymentsOf(c.companyId);
    expect(rows.map((r) => r.applied).sort()).toEqual([false, true]);
  });

  it('an amount below the invoice pays nothing', async () => {
    clock = Date.now();
    const { c, invoice, paymentId } = await charged();
    const before = await dueDateOf(c.companyId);
    asaas.receive(paymentId, { value: Number(invoice.value) - 0.01 });
    const snapshot = await fingerprint(server.app.ds);
    expect((await deliver(asaas.event('PAYMENT_RECEIVED', paymentId))).outcome).toBe('underpaid');
    expect(changedTables(snapshot, await fingerprint(server.app.ds))).toEqual([]);
    expect(await dueDateOf(c.companyId)).toBe(before);
    expect((await invoicesOf(c.companyId))[0]!.status).toBe('open');
    // Exactly the value pays it.
    asaas.receive(paymentId, { value: Number(invoice.value) });
    expect((await deliver(asaas.event('PAYMENT_RECEIVED', paymentId))).outcome).toBe('applied');
  });

  it('the API key and webhook token never reach the logs, even when Asaas refuses', async () => {
    clock = Date.now();
    spyLogs();
    const { paymentId } = await charged();
    asaas.receive(paymentId);
    await deliver(asaas.event('PAYMENT_RECEIVED', paymentId));
    await errorOf(() =>
      deliver(asaas.event('PAYMENT_RECEIVED', paymentId), { 'asaas-access-token': 'forged' }),
    );
    // A wrong key: Asaas answers 401, the checkout answers ERR_BILLING_PROVIDER.
    await saveBillingProvider(server.app, {
      provider: 'asaas',
      apiKey: '$aact_wrong_key_0123456789',
      webhookToken,
      baseUrl: asaas.baseUrl,
    });
    try {
      const c = await company(10);
      await q(`UPDATE companies SET document = '12345678901' WHERE id = $1`, [c.companyId]);
      const invoice = await invoiceOf(c);
      expect(await errorOf(() => checkoutInvoice(server.app, scopeOf(c), invoice.id))).toBe(
        'ERR_BILLING_PROVIDER',
      );
      expect(
        await q('SELECT 1 FROM invoice_charges WHERE "invoiceId" = $1', [invoice.id]),
      ).toHaveLength(0);
    } finally {
      await saveBillingProvider(server.app, {
        provider: 'asaas',
        apiKey: asaas.apiKey,
        webhookToken,
        baseUrl: asaas.baseUrl,
      });
    }
    const text = logged.join('\n');
    expect(logged.length).toBeGreaterThan(0);
    expect(text).toContain('asaas refused a call');
    for (const secret of [asaas.apiKey, '$aact_wrong_key_0123456789', webhookToken]) {
      expect(text).not.toContain(secret);
    }
  });
  it('a payment whose webhook never came is found by the charge check, once', async () => {
    clock = Date.now();
    const { c, invoice, paymentId } = await charged();
    const waiting = await charged();
    const socket = await listening(c);
    const before = await dueDateOf(c.companyId);
    asaas.receive(paymentId);
    const checkOf = async (invoiceId: number) =>
      (
        await q<{ dueAt: Date; firedAt: Date | null }>(
          `SELECT d."dueAt", d."firedAt" FROM durable_jobs d
             JOIN invoice_charges ch ON d.key = 'charge:' || ch.id
            WHERE d.kind = 'billing-charge-check' AND ch."invoiceId" = $1`,
          [invoiceId],
        )
      )[0];
    // Armed at the checkout, CHECK_FIRST_MS later by the billing clock.
    expect(new Date((await checkOf(invoice.id))!.dueAt).getTime()).toBe(clock + CHECK_FIRST_MS);

    // Not due yet: nothing is asked.
    const reads = asaas.calls.filter((x) => x === `GET /v3/payments/${paymentId}`).length;
    await sweepDurable(server.app, chargeCheckJobs);
    expect(asaas.calls.filter((x) => x === `GET /v3/payments/${paymentId}`)).toHaveLength(reads);
    expect(await dueDateOf(c.companyId)).toBe(before);

    // Due: the check re-reads the charge and applies it (this sweep or the worker's own).
    clock = Date.now() + CHECK_FIRST_MS + 60_000;
    await sweepDurable(server.app, chargeCheckJobs);
    await waitFor(async () => (await dueDateOf(c.companyId)) === addMonths(before, 1));
    expect((await invoicesOf(c.companyId))[0]!.status).toBe('paid');
    await eventually(() => paymentEvents(socket).length === 1);
    // The paid charge's check is done; the unpaid one looks again later.
    await waitFor(async () => (await checkOf(invoice.id))?.firedAt != null);
    await waitFor(
      async () => new Date((await checkOf(waiting.invoice.id))!.dueAt).getTime() > clock,
    );
    expect((await invoicesOf(waiting.c.companyId))[0]!.status).toBe('open');

    // The webhook arriving late counts nothing more.
    expect((await deliver(asaas.event('PAYMENT_RECEIVED', paymentId))).outcome).toBe('duplicate');
    expect(await paymentsOf(c.companyId)).toHaveLength(1);
    expect(await dueDateOf(c.companyId)).toBe(addMonths(before, 1));
    clock = Date.now();
  });
});
