// Billing's registrations: the daily invoice job runs in the worker role. Imported for its side
// effect from src/server.ts (until module manifests replace these pushes).
import { workerStarters, type WorkerStarter } from '../../jobs/bullmq.js';
import { startDurableJobs } from '../../jobs/durable.js';
import { ensureInvoiceJob, invoiceJobs } from './invoices.js';
import { chargeCheckJobs } from './reconcile.js';

export const startBilling: WorkerStarter = async (app) => {
  await ensureInvoiceJob(app);
  return startDurableJobs(app, [...invoiceJobs, ...chargeCheckJobs]);
};

if (!workerStarters.includes(startBilling)) workerStarters.push(startBilling);

export { listInvoices, generateInvoices, invoiceJob, INVOICE_LEAD_DAYS } from './invoices.js';
export { checkoutInvoice } from './checkout.js';
export { applyPayment, confirmManualPayment, handlePaymentWebhook } from './payments.js';
export type { PaymentOutcome, PaymentResult } from './payments.js';
export { saveBillingProvider, billingProviderView } from './provider-config.js';
