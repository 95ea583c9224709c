// A webhook can be lost (our server down, the PSP's queue paused). Every charge of a provider that
// can be re-read gets a durable check: it re-reads the charge after CHECK_FIRST_MS, then less and
// less often, and applies a payment it finds exactly as a webhook would (the same rule, so a
// webhook arriving too counts once). It stops once the invoice is paid or CHECK_FOR_DAYS passed.
import { z } from 'zod';
import type { EntityManager } from 'typeorm';
import type { AppContext } from '../../context.js';
import { defineDurableJob, scheduleDurable, type DurableJob } from '../../jobs/durable.js';
import { logger } from '../../logger.js';
import { billingNow } from './clock.js';
import { applyPayment } from './payments.js';
import { providerOf } from './provider-config.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** The first check of a new charge. */
export const CHECK_FIRST_MS = 10 * MINUTE;
/** Checks stop this many days after the charge was made. */
export const CHECK_FOR_DAYS = 35;

/** When to look again at a charge of this age (ms): 10 min, then hourly for a day, then 6-hourly. */
export const nextCheckIn = (ageMs: number): number =>
  ageMs < HOUR ? CHECK_FIRST_MS : ageMs < 24 * HOUR ? HOUR : 6 * HOUR;

export const chargeCheckJob = defineDurableJob({
  kind: 'billing-charge-check',
  payload: z.object({ chargeId: z.number().int().positive() }),
  now: billingNow,
  async run(app, firing) {
    const [charge] = (await firing.tx.query(
      `SELECT ch.provider, ch."providerChargeId", ch."invoiceId", ch."createdAt", i.status
         FROM invoice_charges ch JOIN invoices i ON i.id = ch."invoiceId" WHERE ch.id = $1`,
      [firing.payload.chargeId],
    )) as {
      provider: string;
      providerChargeId: string;
      invoiceId: number;
      createdAt: Date;
      status: string;
    }[];
    if (!charge || charge.status === 'paid') return;
    const now = billingNow();
    const age = now.getTime() - new Date(charge.createdAt).getTime();
    if (age > CHECK_FOR_DAYS * 24 * HOUR) return;
    const provider = await providerOf(app, charge.provider);
    if (!provider?.readCharge) return;
    const reading = await provider.readCharge(charge.providerChargeId);
    if (reading.paid) {
      const result = await applyPayment(app, {
        invoiceId: charge.invoiceId,
        provider: provider.kind,
        providerPaymentId: reading.providerPaymentId,
        endToEndId: reading.endToEndId,
        amount: reading.amount,
        paidAt: reading.paidAt ?? now,
      });
      logger.info({ invoiceId: charge.invoiceId, outcome: result.outcome }, 'charge check');
      // 'underpaid' keeps looking: the provider may report more later.
      if (result.outcome !== 'underpaid') return;
    }
    return { rescheduleAt: new Date(now.getTime() + nextCheckIn(age)) };
  },
});

/** Arms the checks of a new charge (inside the checkout's transaction; trigger after commit). */
export function scheduleChargeCheck(
  app: AppContext,
  chargeId: number,
  companyId: number,
  tx: EntityManager,
): Promise<{ trigger: () => Promise<void> }> {
  return scheduleDurable(
    app,
    chargeCheckJob,
    {
      key: `charge:${chargeId}`,
      companyId,
      dueAt: new Date(billingNow().getTime() + CHECK_FIRST_MS),
      payload: { chargeId },
    },
    tx,
  );
}

export const chargeCheckJobs = [chargeCheckJob as DurableJob<unknown>];
