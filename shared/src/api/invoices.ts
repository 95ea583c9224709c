import { z } from 'zod';
import { idSchema, lineSchema, pageQuery } from './common.js';

/** `GET /invoices/all` (admin §7): searchParam (matches the detail), pageNumber. */
export const invoiceListQuery = pageQuery;

/** One invoice as the list answers it (admin §3); `companyName` only for the super user. */
export const invoiceRow = z.object({
  id: z.number().int(),
  companyId: z.number().int(),
  companyName: z.string().optional(),
  detail: z.string(),
  status: z.enum(['open', 'paid']),
  value: z.string(),
  dueDate: z.string(),
  paidAt: z.string().nullable(),
  createdAt: z.string(),
});
export type InvoiceRow = z.infer<typeof invoiceRow>;

export const invoiceListAnswer = z.object({
  invoices: z.array(invoiceRow),
  count: z.number().int(),
  hasMore: z.boolean(),
});
export type InvoiceListAnswer = z.infer<typeof invoiceListAnswer>;

/**
 * `POST /subscription` (admin §7). Only `invoiceId` is read: the plan, price, users and
 * connections come from the server's invoice and plan, and the card fields of the spec's payload
 * (nameOnCard, cardNumber, cvv) are dropped by the parse, never stored or logged.
 */
export const subscriptionBody = z.object({ invoiceId: idSchema });
export type SubscriptionBody = z.infer<typeof subscriptionBody>;

/** The Pix screen's data: `valor.original` and `qrcode.qrcode` as the spec names them. */
export const subscriptionAnswer = z.object({
  invoiceId: z.number().int(),
  valor: z.object({ original: z.string() }),
  qrcode: z.object({ qrcode: z.string(), imagemQrcode: z.string().optional() }),
  provider: z.string(),
});
export type SubscriptionAnswer = z.infer<typeof subscriptionAnswer>;

/** A Pix end-to-end id (E + ISPB 8 + yyyyMMddHHmm + 11 characters: 32 letters and digits). */
export const endToEndIdSchema = z.string().regex(/^E[0-9]{8}[0-9]{12}[A-Za-z0-9]{11}$/, 'E2E id');

/** The super user confirms a static-key Pix seen in the platform's bank account. */
export const manualPaymentBody = z.object({
  invoiceId: idSchema,
  endToEndId: endToEndIdSchema.optional(),
  /** What arrived, "99.90"; absent: the invoice's value. */
  amount: z
    .string()
    .regex(/^\d{1,10}\.\d{2}$/)
    .optional(),
});
export type ManualPaymentBody = z.infer<typeof manualPaymentBody>;

export const BILLING_PROVIDERS = ['static-pix', 'asaas'] as const;
export type BillingProviderKind = (typeof BILLING_PROVIDERS)[number];

const merchant = {
  /** Shown to the payer (BR Code field 59, folded to ASCII, at most 25). */
  merchantName: lineSchema(100).trim().min(1),
  /** BR Code field 60 (at most 15 once folded). */
  merchantCity: lineSchema(100).trim().min(1),
};

/**
 * The platform's payment-provider settings (super user). Secrets (`apiKey`, `webhookToken`) are
 * write-only: stored sealed, answered as `••••`.
 */
export const billingProviderBody = z.discriminatedUnion('provider', [
  z.object({
    provider: z.literal('static-pix'),
    pixKey: lineSchema(77).trim().min(1),
    ...merchant,
  }),
  z.object({
    provider: z.literal('asaas'),
    apiKey: lineSchema(500).min(1),
    webhookToken: lineSchema(255).min(32, 'at least 32 characters'),
    /** https://api.asaas.com/v3 (production) or https://api-sandbox.asaas.com/v3. */
    baseUrl: z.string().url().max(200).optional(),
  }),
]);
export type BillingProviderBody = z.infer<typeof billingProviderBody>;
