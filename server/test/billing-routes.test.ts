// The billing routes over HTTP (issue 15, items 2–4): `GET /invoices/all`, `GET /invoices/:id`,
// `GET`/`POST /subscription`, the super user's `POST /invoices/:id/confirm` and provider
// settings, and the public Asaas webhook. A price, due date or status sent by the client changes
// nothing, card fields never reach a row or a log, a forged webhook is 401, three deliveries
// extend the due date once, and company B can neither read nor pay A's invoices nor hear A's
// payment event.
import { addLocalDays, addMonths, invoiceStatusLabel, SECRET_MASK } from '@atende/shared';
import { hasError, parsePix, PixElementType } from 'pix-utils';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { logger } from '../src/logger.js';
import { generateInvoices } from '../src/modules/billing/invoices.js';
import { changedTables, fingerprint } from './db-snapshot.js';
import { createCompanyWithAdmin } from './fixtures.js';
import { ADMIN, startTestServer, type Session, type TestServer } from './harness.js';
import { eventually, listen, type Listening } from './socket-client.js';
import { startAsaasStandin, type AsaasStandin } from './standins/asaas.js';

let server: TestServer;
const sockets: Listening[] = [];

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await server?.close();
});
afterEach(() => vi.restoreAllMocks());

/** The super user, signed in now (each sign-in, the fixtures' too, ends the previous session). */
const root = () => server.login(ADMIN.email, ADMIN.password).then((s) => s.token);

const q = <T = Record<string, unknown>>(sql: string, params: unknown[] = []) =>
  server.app.ds.query(sql, params) as Promise<T[]>;

interface Company {
  companyId: number;
  admin: Session;
}

async function company(dueInDays: number): Promise<Company> {
  const made = await createCompanyWithAdmin(server, {
    dueDate: addLocalDays(Date.now(), dueInDays),
  });
  return { companyId: made.companyId, admin: made.admin };
}

interface InvoiceRowDb {
  id: number;
  dueDate: string;
  value: string;
  status: string;
  txid: string;
}
async function invoiceOf(c: Company): Promise<InvoiceRowDb> {
  await generateInvoices(server.app.ds, new Date());
  const [row] = await q<InvoiceRowDb>(
    `SELECT id, "dueDate"::text AS "dueDate", value, status, txid FROM invoices
      WHERE "companyId" = $1 ORDER BY "dueDate" LIMIT 1`,
    [c.companyId],
  );
  if (!row) throw new Error(`no invoice for ${c.companyId}`);
  return row;
}
const dueDateOf = async (companyId: number) =>
  (
    await q<{ d: string }>(`SELECT "dueDate"::text AS d FROM companies WHERE id = $1`, [companyId])
  )[0]!.d;

async function listening(c: Company): Promise<Listening> {
  const socket = await listen(server.url, c.admin.token);
  sockets.push(socket);
  return socket;
}
const paymentEvents = (s: Listening) => s.received.filter((e) => e.event.endsWith('-payment'));

function spyLogs(): string[] {
  const logged: string[] = [];
  for (const level of ['info', 'warn', 'error', 'debug', 'trace', 'fatal'] as const) {
    vi.spyOn(logger, level).mockImplementation(((...args: unknown[]) => {
      logged.push(JSON.stringify(args, (_k, v: unknown) => (v instanceof Error ? String(v) : v)));
    }) as never);
  }
  return logged;
}

describe('static Pix (manual confirmation)', () => {
  beforeAll(async () => {
    const res = await server.request('PUT', '/billing/provider', {
      token: await root(),
      body: {
        provider: 'static-pix',
        pixKey: 'pix@atende.com.br',
        merchantName: 'Atende',
        merchantCity: 'Sao Paulo',
      },
    });
    expect(res.status).toBe(200);
  });

  it('GET /invoices/all: the page with hasMore; the status rule of admin §4 on its rows', async () => {
    const a = await company(10);
    const invoice = await invoiceOf(a);
    const res = await server.request('GET', '/invoices/all?searchParam=&pageNumber=1', {
      token: a.admin.token,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ hasMore: false, count: 1 });
    expect(res.body.invoices).toEqual([
      expect.objectContaining({ id: invoice.id, status: 'open', value: invoice.value }),
    ]);
    expect(res.body.invoices[0].companyName).toBeUndefined();
    // Table: the label the page shows for each state of a row (admin §4).
    const now = Date.now();
    const cases: [string, string, string][] = [
      ['paid', addLocalDays(now, -3), 'Pago'],
      ['paid', addLocalDays(now, 3), 'Pago'],
      ['open', addLocalDays(now, -1), 'Vencido'],
      ['open', addLocalDays(now, 0), 'Em Aberto'],
      ['open', addLocalDays(now, 2), 'Em Aberto'],
    ];
    for (const [status, dueDate, label] of cases) {
      await q(`UPDATE invoices SET status = $2, "dueDate" = $3 WHERE id = $1`, [
        invoice.id,
        status,
        dueDate,
      ]);
      const show = await server.request('GET', `/invoices/${invoice.id}`, {
        token: a.admin.token,
      });
      const row = show.body as { status: string; dueDate: string };
      expect(row.dueDate).toBe(dueDate);
      expect(invoiceStatusLabel(row, now)).toBe(label);
    }
  });

  it('POST /subscription: a tampered price, due date, status or plan changes nothing; card fields go nowhere', async () => {
    const a = await company(9);
    const invoice = await invoiceOf(a);
    const logged = spyLogs();
    const before = await fingerprint(server.app.ds);
    const cardNumber = '4111111111111111';
    const res = await server.request('POST', '/subscription', {
      token: a.admin.token,
      body: {
        firstName: 'Maria Silva',
        lastName: '',
        address2: 'Rua A, 1',
        city: 'Recife',
        state: 'PE',
        zipcode: '50000000',
        country: 'Brasil',
        useAddressForPaymentDetails: true,
        nameOnCard: 'MARIA SILVA',
        cardNumber,
        cvv: '123',
        plan: JSON.stringify({ title: 'Plano', price: 0.01 }),
        price: 0.01,
        value: '0.01',
        valor: { original: '0.01' },
        users: 999,
        connections: 999,
        status: 'paid',
        dueDate: '2099-12-31',
        invoiceId: invoice.id,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.valor.original).toBe(invoice.value);
    const parsed = parsePix(res.body.qrcode.qrcode);
    if (hasError(parsed)) throw new Error(parsed.message);
    expect(parsed).toMatchObject({
      type: PixElementType.STATIC,
      transactionAmount: Number(invoice.value),
      txid: invoice.txid,
    });
    // Only the charge row was written; the invoice and the company are as they were.
    expect(changedTables(before, await fingerprint(server.app.ds))).toEqual(['invoice_charges']);
    const [after] = await q<InvoiceRowDb>(
      `SELECT id, "dueDate"::text AS "dueDate", value, status, txid FROM invoices WHERE id = $1`,
      [invoice.id],
    );
    expect(after).toEqual(invoice);
    expect(await dueDateOf(a.companyId)).toBe(addLocalDays(Date.now(), 9));
    // The card number and CVV are in no row and no log line.
    const [dump] = await q<{ t: string }>(
      `SELECT string_agg(row_to_json(c)::text, ' ') AS t FROM invoice_charges c WHERE "invoiceId" = $1`,
      [invoice.id],
    );
    expect(dump!.t).not.toContain(cardNumber);
    expect(logged.join('\n')).not.toContain(cardNumber);
    expect(logged.join('\n')).not.toContain('MARIA SILVA');
  });

  it("tenant isolation: B cannot read, list or pay A's invoice, nor confirm it, nor hear A's payment", async () => {
    const a = await company(7);
    const b = await company(7);
    const invoice = await invoiceOf(a);
    await invoiceOf(b);
    const socketA = await listening(a);
    const socketB = await listening(b);

    const listB = await server.request('GET', '/invoices/all', { token: b.admin.token });
    expect(listB.body.invoices.map((i: { id: number }) => i.id)).not.toContain(invoice.id);
    const show = await server.request('GET', `/invoices/${invoice.id}`, { token: b.admin.token });
    expect(show.status).toBe(404);
    expect(show.body.error).toBe('ERR_NO_INVOICE_FOUND');

    const before = await fingerprint(server.app.ds);
    const pay = await server.request('POST', '/subscription', {
      token: b.admin.token,
      body: { invoiceId: invoice.id },
    });
    expect(pay.status).toBe(404);
    expect(pay.body.error).toBe('ERR_NO_INVOICE_FOUND');
    // An admin (not super) cannot confirm a payment, not even for its own invoice.
    for (const token of [a.admin.token, b.admin.token]) {
      const confirm = await server.request('POST', `/invoices/${invoice.id}/confirm`, {
        token,
        body: {},
      });
      expect(confirm.status).toBe(403);
    }
    const settings = await server.request('GET', '/billing/provider', { token: a.admin.token });
    expect(settings.status).toBe(403);
    expect(changedTables(before, await fingerprint(server.app.ds))).toEqual([]);

    // The super user confirms A's: A hears it, B does not.
    const due = await dueDateOf(a.companyId);
    const confirmed = await server.request('POST', `/invoices/${invoice.id}/confirm`, {
      token: await root(),
      body: {},
    });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ outcome: 'applied', dueDate: addMonths(due, 1) });
    await eventually(() => paymentEvents(socketA).length === 1);
    expect(paymentEvents(socketA)[0]!.payload).toMatchObject({
      action: 'CONCLUIDA',
      company: { id: a.companyId, dueDate: addMonths(due, 1) },
    });
    // B's socket is live: it hears its own payment, and only that one.
    const invoiceB = await invoiceOf(b);
    await server.request('POST', `/invoices/${invoiceB.id}/confirm`, {
      token: await root(),
      body: {},
    });
    await eventually(() => paymentEvents(socketB).length === 1);
    expect(paymentEvents(socketB).map((e) => e.payload)).toEqual([
      expect.objectContaining({ company: expect.objectContaining({ id: b.companyId }) }),
    ]);
    expect(paymentEvents(socketA)).toHaveLength(1);

    // Confirmed twice: 409, the due date moved once.
    const again = await server.request('POST', `/invoices/${invoice.id}/confirm`, {
      token: await root(),
      body: {},
    });
    expect(again.status).toBe(409);
    expect(await dueDateOf(a.companyId)).toBe(addMonths(due, 1));
  }, 90_000);

  it('an agent (not admin) is refused the invoice routes', async () => {
    const a = await company(6);
    const made = await server.request('POST', '/users', {
      token: a.admin.token,
      body: {
        name: 'Agente',
        email: `agente-${Date.now()}@x.test`,
        password: 'Senha123',
        profile: 'user',
      },
    });
    expect(made.status).toBe(201);
    const agent = await server.login(made.body.email, 'Senha123');
    for (const [method, path] of [
      ['GET', '/invoices/all'],
      ['GET', '/invoices/1'],
      ['POST', '/subscription'],
    ] as const) {
      const res = await server.request(method, path, {
        token: agent.token,
        body: method === 'POST' ? { invoiceId: 1 } : undefined,
      });
      expect(res.status, `${method} ${path}`).toBe(403);
    }
    // The 'Assinatura' page is everyone's: days left and the billing e-mail.
    const view = await server.request('GET', '/subscription', { token: agent.token });
    expect(view.status).toBe(200);
    expect(view.body.company.id).toBe(a.companyId);
  });

  it('GET /subscription: days left, billing e-mail, trial, the open invoice', async () => {
    const a = await company(4);
    const invoice = await invoiceOf(a);
    const res = await server.request('GET', '/subscription', { token: a.admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      daysLeft: 4,
      trial: true,
      company: { id: a.companyId, email: a.admin.user.email, dueDate: addLocalDays(Date.now(), 4) },
      plan: { value: invoice.value },
      invoice: { id: invoice.id, status: 'open' },
    });
  });

  it('the super user sets the provider; secrets answered masked; others get 403', async () => {
    const a = await company(20);
    const refused = await server.request('PUT', '/billing/provider', {
      token: a.admin.token,
      body: { provider: 'static-pix', pixKey: 'x@y.com', merchantName: 'X', merchantCity: 'Y' },
    });
    expect(refused.status).toBe(403);
    const view = await server.request('GET', '/billing/provider', { token: await root() });
    expect(view.body.find((p: { active: boolean }) => p.active).settings.pixKey).toBe(
      'pix@atende.com.br',
    );
  });
});

describe('Asaas webhook route', () => {
  const webhookToken = `whsec-${'y'.repeat(40)}`;
  let asaas: AsaasStandin;

  beforeAll(async () => {
    asaas = await startAsaasStandin();
    const res = await server.request('PUT', '/billing/provider', {
      token: await root(),
      body: { provider: 'asaas', apiKey: asaas.apiKey, webhookToken, baseUrl: asaas.baseUrl },
    });
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body)).not.toContain(webhookToken);
    expect(res.body.find((p: { active: boolean }) => p.active).settings.webhookToken).toBe(
      SECRET_MASK,
    );
  });
  afterAll(() => asaas?.close());

  async function charged(dueInDays = 10) {
    const c = await company(dueInDays);
    await q(`UPDATE companies SET document = '12.345.678/0001-99' WHERE id = $1`, [c.companyId]);
    const invoice = await invoiceOf(c);
    const res = await server.request('POST', '/subscription', {
      token: c.admin.token,
      body: { invoiceId: invoice.id, price: 1 },
    });
    expect(res.status).toBe(200);
    const [charge] = await q<{ providerChargeId: string }>(
      `SELECT "providerChargeId" FROM invoice_charges WHERE "invoiceId" = $1 AND provider = 'asaas'`,
      [invoice.id],
    );
    return { c, invoice, paymentId: charge!.providerChargeId };
  }

  const deliver = (
    body: unknown,
    headers: Record<string, string> = { 'asaas-access-token': webhookToken },
  ) => server.request('POST', '/billing/webhooks/asaas', { body, headers });

  it('a forged delivery is 401 and changes nothing, even for a paid charge', async () => {
    const { c, paymentId } = await charged();
    asaas.receive(paymentId);
    const before = await fingerprint(server.app.ds);
    const forgeries: Record<string, string>[] = [
      {},
      { 'asaas-access-token': 'wrong' },
      { 'asaas-access-token': asaas.apiKey },
      { authorization: `Bearer ${webhookToken}` },
    ];
    for (const headers of forgeries) {
      const res = await deliver(asaas.event('PAYMENT_RECEIVED', paymentId), headers);
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('ERR_WEBHOOK_UNAUTHORIZED');
    }
    expect(changedTables(before, await fingerprint(server.app.ds))).toEqual([]);
    expect(await q('SELECT 1 FROM payments WHERE "companyId" = $1', [c.companyId])).toHaveLength(0);
  });

  it('three deliveries of one payment answer 200 and extend the due date once', async () => {
    const { c, invoice, paymentId } = await charged();
    const socket = await listening(c);
    const due = await dueDateOf(c.companyId);
    asaas.receive(paymentId);
    const outcomes: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await deliver(asaas.event('PAYMENT_RECEIVED', paymentId));
      expect(res.status).toBe(200);
      outcomes.push(res.body.outcome);
    }
    expect(outcomes).toEqual(['applied', 'duplicate', 'duplicate']);
    expect(await dueDateOf(c.companyId)).toBe(addMonths(due, 1));
    expect(await q('SELECT 1 FROM payments WHERE "companyId" = $1', [c.companyId])).toHaveLength(1);
    const [row] = await q<{ status: string }>('SELECT status FROM invoices WHERE id = $1', [
      invoice.id,
    ]);
    expect(row!.status).toBe('paid');
    await eventually(() => paymentEvents(socket).length === 1);
    // A paid invoice cannot be checked out again.
    const again = await server.request('POST', '/subscription', {
      token: c.admin.token,
      body: { invoiceId: invoice.id },
    });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('ERR_INVOICE_ALREADY_PAID');
  });
});
