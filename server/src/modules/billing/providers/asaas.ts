// Asaas (https://docs.asaas.com, API v3): a customer per company, a PIX payment per invoice, its
// QR code from `GET /payments/{id}/pixQrCode`, and `GET /payments/{id}` to re-read it. Calls carry
// the API key in the `access_token` header; webhooks carry our token in `asaas-access-token`.
// Neither key nor token is ever logged or answered.
import { createHash, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { AppError } from '../../../http/errors.js';
import { logger } from '../../../logger.js';
import type { ChargeReading, PaymentProvider, WebhookHeaders } from '../provider.js';

export const ASAAS_PRODUCTION_URL = 'https://api.asaas.com/v3';
/** Each call to Asaas gives up after this long (a checkout waits on it). */
export const ASAAS_TIMEOUT_MS = 10_000;
/** Payment statuses meaning the money arrived (a Pix is RECEIVED; CONFIRMED is a card's). */
export const ASAAS_PAID_STATUSES = ['RECEIVED', 'CONFIRMED'] as const;
/** Webhook events worth a re-read; every other event is acknowledged and ignored. */
export const ASAAS_PAYMENT_EVENTS = ['PAYMENT_RECEIVED', 'PAYMENT_CONFIRMED'] as const;

export interface AsaasSettings {
  baseUrl: string;
}
export interface AsaasSecrets {
  apiKey: string;
  webhookToken: string;
}

const customerList = z.object({ data: z.array(z.object({ id: z.string().min(1) })) });
const customer = z.object({ id: z.string().min(1) });
const payment = z.object({
  id: z.string().min(1),
  status: z.string(),
  value: z.number().nonnegative(),
  paymentDate: z.string().nullish(),
  clientPaymentDate: z.string().nullish(),
  externalReference: z.string().nullish(),
  deleted: z.boolean().optional(),
});
const pixQrCode = z.object({
  encodedImage: z.string().optional(),
  payload: z.string().min(1),
});
const webhookBody = z.object({
  event: z.string(),
  payment: z.object({ id: z.string().min(1).max(100) }),
});

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Constant-time: the comparison takes the same time however much of the token matches. */
export function sameToken(given: string | undefined, expected: string): boolean {
  if (given === undefined || expected === '') return false;
  return timingSafeEqual(digest(given), digest(expected));
}

const headerValue = (headers: WebhookHeaders, name: string): string | undefined => {
  const value = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
};

const money = (value: number) => value.toFixed(2);

export function asaasProvider(settings: AsaasSettings, secrets: AsaasSecrets): PaymentProvider {
  const base = settings.baseUrl.replace(/\/+$/, '');

  async function call<T>(
    method: 'GET' | 'POST',
    path: string,
    schema: z.ZodType<T>,
    body?: unknown,
  ): Promise<T> {
    let res: Response;
    try {
      res = await fetch(`${base}${path}`, {
        method,
        headers: {
          access_token: secrets.apiKey,
          'user-agent': 'Atende',
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        redirect: 'error',
        signal: AbortSignal.timeout(ASAAS_TIMEOUT_MS),
      });
    } catch (err) {
      logger.warn(
        { provider: 'asaas', method, path: path.split('?')[0], err: String(err) },
        'asaas call failed',
      );
      throw new AppError('ERR_BILLING_PROVIDER');
    }
    const text = await res.text();
    if (!res.ok) {
      // Asaas answers { errors: [{ code, description }] }; only the codes are logged.
      let codes: unknown;
      try {
        codes = (JSON.parse(text) as { errors?: { code?: unknown }[] }).errors?.map((e) => e.code);
      } catch {
        codes = undefined;
      }
      logger.warn(
        { provider: 'asaas', method, path: path.split('?')[0], status: res.status, codes },
        'asaas refused a call',
      );
      throw new AppError('ERR_BILLING_PROVIDER');
    }
    let parsed: z.ZodSafeParseResult<T>;
    try {
      parsed = schema.safeParse(JSON.parse(text));
    } catch {
      parsed = { success: false } as z.ZodSafeParseResult<T>;
    }
    if (!parsed.success) {
      logger.warn(
        { provider: 'asaas', method, path: path.split('?')[0] },
        'asaas answer unreadable',
      );
      throw new AppError('ERR_BILLING_PROVIDER');
    }
    return parsed.data;
  }

  const enc = encodeURIComponent;

  return {
    kind: 'asaas',

    async createCharge({ invoice, company, today }) {
      const document = (company.document ?? '').replace(/\D/g, '');
      if (document.length !== 11 && document.length !== 14) {
        throw new AppError('ERR_BILLING_DOCUMENT_REQUIRED');
      }
      const reference = `company-${company.id}`;
      const found = await call(
        'GET',
        `/customers?externalReference=${enc(reference)}`,
        customerList,
      );
      const customerId =
        found.data[0]?.id ??
        (
          await call('POST', '/customers', customer, {
            name: company.billingName || company.name,
            cpfCnpj: document,
            email: company.email ?? undefined,
            externalReference: reference,
          })
        ).id;
      const created = await call('POST', '/payments', payment, {
        customer: customerId,
        billingType: 'PIX',
        value: Number(invoice.value),
        // Asaas refuses a due date in the past; an overdue invoice is charged for today.
        dueDate: invoice.dueDate < today ? today : invoice.dueDate,
        description: invoice.detail,
        externalReference: invoice.txid,
      });
      const qr = await call('GET', `/payments/${enc(created.id)}/pixQrCode`, pixQrCode);
      return {
        providerChargeId: created.id,
        brCode: qr.payload,
        ...(qr.encodedImage ? { imageBase64: qr.encodedImage } : {}),
      };
    },

    async readCharge(providerChargeId): Promise<ChargeReading> {
      const p = await call('GET', `/payments/${enc(providerChargeId)}`, payment);
      const paid =
        p.id === providerChargeId &&
        !p.deleted &&
        (ASAAS_PAID_STATUSES as readonly string[]).includes(p.status);
      const day = p.clientPaymentDate ?? p.paymentDate ?? null;
      return {
        providerChargeId,
        providerPaymentId: p.id,
        paid,
        amount: money(p.value),
        paidAt: day && /^\d{4}-\d{2}-\d{2}$/.test(day) ? new Date(`${day}T12:00:00-03:00`) : null,
        endToEndId: null,
      };
    },

    webhook: {
      authenticate: (headers) =>
        sameToken(headerValue(headers, 'asaas-access-token'), secrets.webhookToken),
      chargeIdOf(body) {
        const parsed = webhookBody.safeParse(body);
        if (!parsed.success) return null;
        return (ASAAS_PAYMENT_EVENTS as readonly string[]).includes(parsed.data.event)
          ? parsed.data.payment.id
          : null;
      },
    },
  };
}
