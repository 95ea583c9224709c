// Billing: invoices, Pix checkout and payments. The daily invoice job and the charge check run in
// the worker role.
import type { WorkerStarter } from '../../jobs/bullmq.js';
import { startDurableJobs } from '../../jobs/durable.js';
import { defineModule } from '../manifest.js';
import { billingRoutes } from './billing.routes.js';
import { billingEntities } from './entities.js';
import { ensureInvoiceJob, invoiceJobs } from './invoices.js';
import { chargeCheckJobs } from './reconcile.js';

export const startBilling: WorkerStarter = async (app) => {
  await ensureInvoiceJob(app);
  return startDurableJobs(app, [...invoiceJobs, ...chargeCheckJobs]);
};

export const billingModule = defineModule({
  name: 'billing',
  entities: billingEntities,
  routers: [billingRoutes],
  workers: [startBilling],
});

export { listInvoices, generateInvoices, invoiceJob, INVOICE_LEAD_DAYS } from './invoices.js';
export { checkoutInvoice } from './checkout.js';
export { applyPayment, confirmManualPayment, handlePaymentWebhook } from './payments.js';
export type { PaymentOutcome, PaymentResult } from './payments.js';
export { saveBillingProvider, billingProviderView } from './provider-config.js';
