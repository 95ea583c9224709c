import { z } from 'zod';
import { idParams, idSchema, lineSchema, pageQuery } from './common.js';
import { endpoint } from './endpoint.js';

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

/** The super user's confirmation of a static-key Pix (`POST /invoices/:id/confirm`). */
export const invoiceConfirmBody = manualPaymentBody.omit({ invoiceId: true });
export type InvoiceConfirmBody = z.infer<typeof invoiceConfirmBody>;

export const PAYMENT_OUTCOMES = [
  'applied',
  'duplicate',
  'surplus',
  'underpaid',
  'unpaid',
  'ignored',
] as const;

/** What a payment did: `dueDate` is the company's new due date when it was applied. */
export const paymentAnswer = z.object({
  outcome: z.enum(PAYMENT_OUTCOMES),
  companyId: z.number().int().optional(),
  dueDate: z.string().optional(),
});
export type PaymentAnswer = z.infer<typeof paymentAnswer>;

/**
 * The checkout's address step (admin §5, Whaticket's checkout form): full name, address, city,
 * zip code (8 digits) and country required, with the Portuguese messages. Client-side only: the
 * server reads none of it (`subscriptionBody`).
 */
export const CHECKOUT_MESSAGES = {
  firstName: 'O nome completo é obrigatório',
  address2: 'O Endereço é obrigatório',
  city: 'A cidade é obrigatória',
  zipcode: 'CEP é obrigatório',
  zipcodeFormat: 'Formato de CEP inválido',
  country: 'País é obrigatório',
} as const;

const required = (message: string) => z.string({ error: message }).trim().min(1, message);

export const checkoutAddress = z.object({
  firstName: required(CHECKOUT_MESSAGES.firstName),
  address2: required(CHECKOUT_MESSAGES.address2),
  city: required(CHECKOUT_MESSAGES.city),
  state: z.string().trim().optional(),
  zipcode: required(CHECKOUT_MESSAGES.zipcode).pipe(
    z.string().regex(/^\d{5}-?\d{3}$/, CHECKOUT_MESSAGES.zipcodeFormat),
  ),
  country: required(CHECKOUT_MESSAGES.country),
});
export type CheckoutAddress = z.infer<typeof checkoutAddress>;

/** Country choices of the address step (admin §9). */
export const CHECKOUT_COUNTRIES = ['Brasil', 'United States'] as const;

/** `GET /subscription`: what the 'Assinatura' page shows. */
export const subscriptionView = z.object({
  company: z.object({
    id: z.number().int(),
    name: z.string(),
    email: z.string(),
    dueDate: z.string().nullable(),
    recurrence: z.string(),
  }),
  plan: z
    .object({
      id: z.number().int(),
      name: z.string(),
      value: z.string(),
      users: z.number().int(),
      connections: z.number().int(),
      queues: z.number().int(),
    })
    .nullable(),
  /** Whole days until the due date in the company's zone (0 when it is today or past). */
  daysLeft: z.number().int().nullable(),
  /** No payment counted yet: the company is in its trial period. */
  trial: z.boolean(),
  /** The oldest unpaid invoice, which the subscribe button pays. */
  invoice: invoiceRow.nullable(),
});
export type SubscriptionView = z.infer<typeof subscriptionView>;

/** The provider settings as the super user reads them (secrets masked). */
export const billingProviderAnswer = z.array(
  z.object({
    provider: z.enum(BILLING_PROVIDERS),
    active: z.boolean(),
    settings: z.record(z.string(), z.string()),
  }),
);

/** Invoices, the Pix checkout, the provider's webhook (admin §2, §4, §7). */
export const invoiceEndpoints = {
  listInvoices: endpoint({
    method: 'get',
    path: '/invoices/all',
    summary: "A page of the company's invoices (the super user: every company's)",
    tag: 'invoices',
    access: 'admin',
    query: invoiceListQuery,
    response: invoiceListAnswer,
  }),
  showInvoice: endpoint({
    method: 'get',
    path: '/invoices/:id',
    summary: 'One invoice of the company (the super user: any)',
    tag: 'invoices',
    access: 'admin',
    params: idParams,
    response: invoiceRow,
  }),
  confirmInvoice: endpoint({
    method: 'post',
    path: '/invoices/:id/confirm',
    summary: 'The super user confirms a Pix paid to the platform key (counts once)',
    tag: 'invoices',
    access: 'super',
    params: idParams,
    body: invoiceConfirmBody,
    response: paymentAnswer,
  }),
  subscription: endpoint({
    method: 'get',
    path: '/subscription',
    summary: "The company's subscription: due date, days left, billing e-mail, open invoice",
    tag: 'invoices',
    response: subscriptionView,
  }),
  subscribe: endpoint({
    method: 'post',
    path: '/subscription',
    summary: "The Pix for one of the company's invoices (price from the invoice, never the body)",
    tag: 'invoices',
    access: 'admin',
    body: subscriptionBody,
    response: subscriptionAnswer,
  }),
  asaasWebhook: endpoint({
    method: 'post',
    path: '/billing/webhooks/asaas',
    summary: 'Asaas payment notifications (asaas-access-token header; the charge is re-read)',
    tag: 'invoices',
    access: 'public',
    body: z.looseObject({}),
    response: paymentAnswer,
  }),
  billingProvider: endpoint({
    method: 'get',
    path: '/billing/provider',
    summary: "The platform's payment-provider settings (secrets masked)",
    tag: 'invoices',
    access: 'super',
    response: billingProviderAnswer,
  }),
  saveBillingProvider: endpoint({
    method: 'put',
    path: '/billing/provider',
    summary: "Sets the platform's payment provider (secrets stored sealed, never answered)",
    tag: 'invoices',
    access: 'super',
    body: billingProviderBody,
    response: billingProviderAnswer,
  }),
} as const;
