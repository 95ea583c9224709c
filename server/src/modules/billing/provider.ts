// The payment-provider port: what billing needs from whoever takes the money. Two adapters:
// `static-pix` (the platform's own key, confirmed by hand by the super user) and `asaas` (dynamic
// charges, authenticated webhooks, re-read before they count).
import type { BillingProviderKind } from '@atende/shared';
import type { Company } from '../companies/index.js';
import type { Invoice } from './entities.js';

export interface ChargeSubject {
  invoice: Invoice;
  company: Company;
  /** The platform's today (yyyy-MM-dd): a provider may refuse a charge due in the past. */
  today: string;
}

export interface CreatedCharge {
  /** The provider's id for the charge (Asaas `pay_…`; static: our txid). */
  providerChargeId: string;
  /** The Pix "copia e cola" text. */
  brCode: string;
  /** A PNG of the QR code, base64, when the provider draws one. */
  imageBase64?: string;
}

/** A charge as the provider tells it now. */
export interface ChargeReading {
  providerChargeId: string;
  /** Identifies the payment for "counts once" (Asaas: the payment id). */
  providerPaymentId: string;
  paid: boolean;
  /** What was paid, "99.90". */
  amount: string;
  paidAt: Date | null;
  /** The Pix end-to-end id, when the provider gives it. */
  endToEndId: string | null;
}

export type WebhookHeaders = Record<string, string | string[] | undefined>;

export interface PaymentProvider {
  readonly kind: BillingProviderKind;
  createCharge(subject: ChargeSubject): Promise<CreatedCharge>;
  /**
   * Re-reads a charge at the provider: a webhook only says "look", this answer is what counts.
   * Absent for providers confirmed by hand.
   */
  readCharge?(providerChargeId: string): Promise<ChargeReading>;
  webhook?: {
    /** Whether the delivery carries the provider's credential (constant-time comparison). */
    authenticate(headers: WebhookHeaders): boolean;
    /** The charge a delivery is about, or null for an event that cannot mean money arrived. */
    chargeIdOf(body: unknown): string | null;
  };
}
