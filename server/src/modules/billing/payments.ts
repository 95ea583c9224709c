// The payment rule (issue 15): a payment counts once, only when it is at least the invoice's
// value, and then, in one transaction, the invoice is paid and the company's due date moves one
// recurrence period from the later of its due date and the payment day. Afterwards the company's
// sockets hear `company-{id}-payment` `{ action: 'CONCLUIDA', company }`.
//
// Concurrency: the invoice row is locked (FOR UPDATE) before anything is read or written, so
// deliveries of one payment run one after the other; the unique (provider, providerPaymentId)
// and end-to-end id indexes make a second insert a no-op, so a repeat extends nothing.
import {
  localDay,
  renewedDueDate,
  TIME_ZONE_SETTING,
  timeZoneOr,
  type ManualPaymentBody,
} from '@atende/shared';
import type { EntityManager } from 'typeorm';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { logger } from '../../logger.js';
import { billingNow } from './clock.js';
import { providerOf } from './provider-config.js';
import type { WebhookHeaders } from './provider.js';

export type PaymentOutcome =
  /** The invoice is now paid and the due date moved. */
  | 'applied'
  /** This payment (or its end-to-end id) was counted before: nothing changed. */
  | 'duplicate'
  /** Another payment already paid the invoice: this one is kept, it extends nothing. */
  | 'surplus'
  /** Less than the invoice: nothing written. */
  | 'underpaid'
  /** The provider says the charge is not paid: nothing written. */
  | 'unpaid'
  /** An event that cannot mean money arrived, or a charge that is not ours. */
  | 'ignored';

export interface ArrivedPayment {
  invoiceId: number;
  provider: string;
  providerPaymentId: string;
  endToEndId: string | null;
  /** "99.90" */
  amount: string;
  paidAt: Date;
}

export interface PaymentResult {
  outcome: PaymentOutcome;
  companyId?: number;
  /** The company's due date after the payment (applied only). */
  dueDate?: string;
}

/** "99.9" / "99.90" / "100" → cents, exactly (no floating point on money). */
export function cents(amount: string): number {
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(amount.trim());
  if (!match) throw new Error(`not an amount: ${amount}`);
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

interface LockedInvoice {
  id: number;
  companyId: number;
  status: string;
  value: string;
}

async function lockInvoice(
  tx: EntityManager,
  invoiceId: number,
): Promise<LockedInvoice | undefined> {
  const [row] = (await tx.query(
    `SELECT id, "companyId", status, value FROM invoices WHERE id = $1 FOR UPDATE`,
    [invoiceId],
  )) as LockedInvoice[];
  return row;
}

/** Records a payment and, when it pays an open invoice, extends the company's due date. */
export async function applyPayment(app: AppContext, p: ArrivedPayment): Promise<PaymentResult> {
  const result = await app.ds.transaction(
    async (tx): Promise<PaymentResult & { company?: unknown }> => {
      const invoice = await lockInvoice(tx, p.invoiceId);
      if (!invoice) throw new AppError('ERR_NO_INVOICE_FOUND');
      const companyId = invoice.companyId;
      if (cents(p.amount) < cents(invoice.value)) return { outcome: 'underpaid', companyId };
      const [company] = (await tx.query(
        `SELECT id, name, "dueDate"::text AS "dueDate", recurrence FROM companies
        WHERE id = $1 FOR UPDATE`,
        [companyId],
      )) as { id: number; name: string; dueDate: string | null; recurrence: string }[];
      const applies = invoice.status !== 'paid';
      const zone = timeZoneOr(await app.settings.get(companyId, TIME_ZONE_SETTING));
      const dueDate = applies
        ? renewedDueDate(company!.dueDate, localDay(p.paidAt, zone), company!.recurrence)
        : null;
      const inserted = (await tx.query(
        `INSERT INTO payments ("companyId", "invoiceId", provider, "providerPaymentId", "endToEndId",
                             amount, "paidAt", applied, "dueDateBefore", "dueDateAfter")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       ON CONFLICT DO NOTHING RETURNING id`,
        [
          companyId,
          invoice.id,
          p.provider,
          p.providerPaymentId,
          p.endToEndId,
          p.amount,
          p.paidAt,
          applies,
          applies ? company!.dueDate : null,
          dueDate,
        ],
      )) as { id: number }[];
      if (!inserted.length) return { outcome: 'duplicate', companyId };
      if (!applies) return { outcome: 'surplus', companyId };
      await tx.query(
        `UPDATE invoices SET status = 'paid', "paidAt" = $2, "updatedAt" = now() WHERE id = $1`,
        [invoice.id, p.paidAt],
      );
      await tx.query(`UPDATE companies SET "dueDate" = $2, "updatedAt" = now() WHERE id = $1`, [
        companyId,
        dueDate,
      ]);
      return {
        outcome: 'applied',
        companyId,
        dueDate: dueDate!,
        company: { id: companyId, name: company!.name, recurrence: company!.recurrence },
      };
    },
  );
  logger.info(
    { invoiceId: p.invoiceId, provider: p.provider, outcome: result.outcome },
    'payment arrived',
  );
  if (result.outcome === 'applied' && result.companyId && result.dueDate) {
    app.realtime.toCompany(result.companyId, 'payment', {
      action: 'CONCLUIDA',
      company: { ...(result.company as object), id: result.companyId, dueDate: result.dueDate },
    });
  }
  return { outcome: result.outcome, companyId: result.companyId, dueDate: result.dueDate };
}

/**
 * A provider's webhook delivery. Authenticated first (ERR_WEBHOOK_UNAUTHORIZED, 401, before
 * anything is read); then the charge it names is looked up among ours and re-read from the
 * provider, and only that reading is applied. A repeat answers 'duplicate' (the route should
 * answer 200: a PSP retries, and Asaas pauses its queue, on anything else).
 */
export async function handlePaymentWebhook(
  app: AppContext,
  providerKind: string,
  headers: WebhookHeaders,
  body: unknown,
): Promise<PaymentResult> {
  const provider = await providerOf(app, providerKind);
  if (!provider?.webhook || !provider.readCharge || !provider.webhook.authenticate(headers)) {
    logger.warn({ provider: providerKind }, 'payment webhook refused: not authenticated');
    throw new AppError('ERR_WEBHOOK_UNAUTHORIZED');
  }
  const chargeId = provider.webhook.chargeIdOf(body);
  if (!chargeId) return { outcome: 'ignored' };
  const [charge] = (await app.ds.query(
    `SELECT "invoiceId", "companyId" FROM invoice_charges
      WHERE provider = $1 AND "providerChargeId" = $2`,
    [provider.kind, chargeId],
  )) as { invoiceId: number; companyId: number }[];
  if (!charge) return { outcome: 'ignored' };
  const reading = await provider.readCharge(chargeId);
  if (!reading.paid) return { outcome: 'unpaid', companyId: charge.companyId };
  return applyPayment(app, {
    invoiceId: charge.invoiceId,
    provider: provider.kind,
    providerPaymentId: reading.providerPaymentId,
    endToEndId: reading.endToEndId,
    amount: reading.amount,
    paidAt: reading.paidAt ?? billingNow(),
  });
}

/**
 * The super user confirms a payment to the platform's static key, seen in its bank account. One
 * confirmation per invoice counts (its payment id is the invoice's); an amount below the invoice
 * is refused.
 */
export async function confirmManualPayment(
  app: AppContext,
  actor: { super: boolean },
  body: ManualPaymentBody,
): Promise<PaymentResult> {
  if (!actor.super) throw new AppError('ERR_NO_PERMISSION');
  const [invoice] = (await app.ds.query('SELECT id, status, value FROM invoices WHERE id = $1', [
    body.invoiceId,
  ])) as { id: number; status: string; value: string }[];
  if (!invoice) throw new AppError('ERR_NO_INVOICE_FOUND');
  if (invoice.status === 'paid') throw new AppError('ERR_INVOICE_ALREADY_PAID');
  const result = await applyPayment(app, {
    invoiceId: invoice.id,
    provider: 'static-pix',
    providerPaymentId: `invoice-${invoice.id}`,
    endToEndId: body.endToEndId ?? null,
    amount: body.amount ?? invoice.value,
    paidAt: billingNow(),
  });
  if (result.outcome === 'underpaid') throw new AppError('ERR_PAYMENT_BELOW_INVOICE');
  // Its end-to-end id counted for another payment, or a confirmation at the same moment won.
  if (result.outcome === 'duplicate') throw new AppError('ERR_CONFLICT');
  return result;
}
