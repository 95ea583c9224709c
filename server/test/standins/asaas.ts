// A local stand-in for the Asaas API v3, speaking the documented shapes (docs.asaas.com): the
// `access_token` header, `{ errors: [{ code, description }] }` refusals, customers, PIX payments,
// `GET /payments/{id}/pixQrCode` and `GET /payments/{id}`. It keeps its state in memory and lets a
// test play the bank: `receive(id)` marks a payment RECEIVED, `event(...)` builds the webhook body
// Asaas would POST. Its BR Codes are made by pix-utils, not by the code under test.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDynamicPix, hasError } from 'pix-utils';

export interface StandinPayment {
  object: 'payment';
  id: string;
  customer: string;
  billingType: string;
  value: number;
  netValue: number;
  status: string;
  dueDate: string;
  description: string | null;
  externalReference: string | null;
  paymentDate: string | null;
  clientPaymentDate: string | null;
  deleted: boolean;
  dateCreated: string;
}

interface Customer {
  object: 'customer';
  id: string;
  name: string;
  cpfCnpj: string;
  email: string | null;
  externalReference: string | null;
}

export interface AsaasStandin {
  /** The base URL as the adapter takes it: `http://127.0.0.1:<port>/v3`. */
  baseUrl: string;
  apiKey: string;
  payments: Map<string, StandinPayment>;
  customers: Map<string, Customer>;
  /** Every request, as `METHOD /path` (query left out). */
  calls: string[];
  /** Marks a payment paid, as a Pix arriving does. */
  receive: (id: string, options?: { value?: number; date?: string }) => StandinPayment;
  /** The webhook body Asaas posts for an event of a payment. */
  event: (event: string, id: string) => unknown;
  close: () => Promise<void>;
}

const today = () => new Date().toISOString().slice(0, 10);
const newId = (prefix: string) => `${prefix}_${randomBytes(6).toString('hex')}`;

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
const refuse = (res: ServerResponse, status: number, code: string, description: string) =>
  send(res, status, { errors: [{ code, description }] });

async function readJson(req: IncomingMessage): Promise<Record<string, unknown> | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  if (!chunks.length) return undefined;
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

export async function startAsaasStandin(apiKey = `$aact_${randomBytes(16).toString('hex')}`) {
  const payments = new Map<string, StandinPayment>();
  const customers = new Map<string, Customer>();
  const calls: string[] = [];

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://standin');
      calls.push(`${req.method} ${url.pathname}`);
      const body = await readJson(req);
      if (req.headers.access_token !== apiKey) {
        return refuse(res, 401, 'invalid_access_token', 'A chave de API fornecida é inválida');
      }
      if (req.method === 'GET' && body !== undefined) {
        // Documented: a GET with a body is refused.
        return refuse(res, 403, 'forbidden', 'GET requests must have an empty body');
      }
      const path = url.pathname.replace(/^\/v3/, '');
      let m: RegExpExecArray | null;

      if (req.method === 'GET' && path === '/customers') {
        const ref = url.searchParams.get('externalReference');
        const data = [...customers.values()].filter((c) => !ref || c.externalReference === ref);
        return send(res, 200, {
          object: 'list',
          hasMore: false,
          totalCount: data.length,
          limit: 10,
          offset: 0,
          data,
        });
      }
      if (req.method === 'POST' && path === '/customers') {
        const name = typeof body?.name === 'string' ? body.name : '';
        const cpfCnpj = typeof body?.cpfCnpj === 'string' ? body.cpfCnpj : '';
        if (!name) return refuse(res, 400, 'invalid_name', 'O nome do cliente é obrigatório.');
        if (!/^(\d{11}|\d{14})$/.test(cpfCnpj)) {
          return refuse(res, 400, 'invalid_cpfCnpj', 'O CPF/CNPJ informado é inválido.');
        }
        const customer: Customer = {
          object: 'customer',
          id: newId('cus'),
          name,
          cpfCnpj,
          email: typeof body?.email === 'string' ? body.email : null,
          externalReference:
            typeof body?.externalReference === 'string' ? body.externalReference : null,
        };
        customers.set(customer.id, customer);
        return send(res, 200, customer);
      }
      if (req.method === 'POST' && path === '/payments') {
        const customer = typeof body?.customer === 'string' ? customers.get(body.customer) : null;
        if (!customer) return refuse(res, 400, 'invalid_customer', 'Cliente inválido.');
        if (!['PIX', 'BOLETO', 'CREDIT_CARD', 'UNDEFINED'].includes(String(body?.billingType))) {
          return refuse(res, 400, 'invalid_billingType', 'Forma de pagamento inválida.');
        }
        const value = Number(body?.value);
        if (!(value > 0)) return refuse(res, 400, 'invalid_value', 'Valor inválido.');
        const dueDate = String(body?.dueDate ?? '');
        if (!/^\d{4}-\d{2}-\d{2}$/.test(dueDate) || dueDate < today()) {
          return refuse(res, 400, 'invalid_dueDate', 'Data de vencimento inválida.');
        }
        const payment: StandinPayment = {
          object: 'payment',
          id: newId('pay'),
          customer: customer.id,
          billingType: String(body?.billingType),
          value,
          netValue: Math.round(value * 99) / 100,
          status: 'PENDING',
          dueDate,
          description: typeof body?.description === 'string' ? body.description : null,
          externalReference:
            typeof body?.externalReference === 'string' ? body.externalReference : null,
          paymentDate: null,
          clientPaymentDate: null,
          deleted: false,
          dateCreated: today(),
        };
        payments.set(payment.id, payment);
        return send(res, 200, payment);
      }
      if (req.method === 'GET' && (m = /^\/payments\/([^/]+)\/pixQrCode$/.exec(path))) {
        const payment = payments.get(decodeURIComponent(m[1]!));
        if (!payment) return refuse(res, 404, 'not_found', 'Cobrança não encontrada.');
        const pix = createDynamicPix({
          merchantName: 'Asaas Standin',
          merchantCity: 'Joinville',
          url: `pix.standin.local/qr/v2/${payment.id}`,
        });
        if (hasError(pix)) return refuse(res, 500, 'internal', pix.message);
        return send(res, 200, {
          encodedImage: Buffer.from(`png of ${payment.id}`).toString('base64'),
          payload: pix.toBRCode(),
          expirationDate: `${payment.dueDate} 23:59:59`,
        });
      }
      if (req.method === 'GET' && (m = /^\/payments\/([^/]+)$/.exec(path))) {
        const payment = payments.get(decodeURIComponent(m[1]!));
        if (!payment) return refuse(res, 404, 'not_found', 'Cobrança não encontrada.');
        return send(res, 200, payment);
      }
      return refuse(res, 404, 'not_found', 'Recurso não encontrado.');
    })().catch((err: unknown) => refuse(res, 500, 'internal', String(err)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const standin: AsaasStandin = {
    baseUrl: `http://127.0.0.1:${port}/v3`,
    apiKey,
    payments,
    customers,
    calls,
    receive(id, options = {}) {
      const payment = payments.get(id);
      if (!payment) throw new Error(`no payment ${id}`);
      const date = options.date ?? today();
      Object.assign(payment, {
        status: 'RECEIVED',
        paymentDate: date,
        clientPaymentDate: date,
        ...(options.value !== undefined ? { value: options.value } : {}),
      });
      return payment;
    },
    event: (event, id) => ({
      id: `evt_${randomBytes(8).toString('hex')}`,
      event,
      dateCreated: new Date().toISOString().replace('T', ' ').slice(0, 19),
      payment: { ...(payments.get(id) ?? { object: 'payment', id }) },
    }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return standin;
}
