// The billing routes (admin §2, §4, §7): invoices, the Pix checkout, the subscription page's
// data, the super user's manual confirmation and provider settings, and the PSP's webhook.
import { Router } from 'express';
import {
  daysUntilDue,
  invoiceEndpoints as api,
  TIME_ZONE_SETTING,
  timeZoneOr,
} from '@atende/shared';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { serve } from '../../http/route.js';
import { CompanyEntity } from '../companies/index.js';
import { PlanEntity } from '../plans/index.js';
import { checkoutInvoice } from './checkout.js';
import { billingNow } from './clock.js';
import { InvoiceEntity } from './entities.js';
import { listInvoices, invoiceRowOf } from './invoices.js';
import { confirmManualPayment, handlePaymentWebhook } from './payments.js';
import { billingProviderView, saveBillingProvider } from './provider-config.js';

export function billingRoutes(app: AppContext): Router {
  const router = Router();

  serve(router, app, api.listInvoices, ({ scope, user, query }) =>
    listInvoices(app, { scope, super: user.super }, query),
  );

  serve(router, app, api.showInvoice, async ({ scope, user, params }) => {
    const invoice = user.super
      ? await app.ds.getRepository(InvoiceEntity).findOneBy({ id: params.id })
      : await scope.repo(InvoiceEntity, 'ERR_NO_INVOICE_FOUND').findOne({ id: params.id });
    if (!invoice) throw new AppError('ERR_NO_INVOICE_FOUND');
    return invoiceRowOf(invoice);
  });

  serve(router, app, api.confirmInvoice, ({ user, params, body }) =>
    confirmManualPayment(app, user, { ...body, invoiceId: params.id }),
  );

  serve(router, app, api.subscription, async ({ scope }) => {
    const company = await app.ds
      .getRepository(CompanyEntity)
      .findOneByOrFail({ id: scope.companyId });
    const plan = company.planId
      ? await app.ds.getRepository(PlanEntity).findOneBy({ id: company.planId })
      : null;
    const zone = timeZoneOr(await app.settings.get(company.id, TIME_ZONE_SETTING));
    const [paid] = (await app.ds.query(
      'SELECT 1 FROM payments WHERE "companyId" = $1 AND applied LIMIT 1',
      [company.id],
    )) as unknown[];
    const invoice = await scope
      .repo(InvoiceEntity, 'ERR_NO_INVOICE_FOUND')
      .query('i')
      .andWhere(`i.status = 'open'`)
      .orderBy('i.dueDate', 'ASC')
      .addOrderBy('i.id', 'ASC')
      .getOne();
    return {
      company: {
        id: company.id,
        name: company.name,
        email: company.email ?? '',
        dueDate: company.dueDate,
        recurrence: company.recurrence,
      },
      plan: plan
        ? {
            id: plan.id,
            name: plan.name,
            value: String(plan.value),
            users: plan.users,
            connections: plan.connections,
            queues: plan.queues,
          }
        : null,
      daysLeft: company.dueDate
        ? Math.max(0, daysUntilDue(company.dueDate, billingNow().getTime(), zone))
        : null,
      trial: !paid,
      invoice: invoice ? invoiceRowOf(invoice) : null,
    };
  });

  // Only `invoiceId` is read: the price, plan, users and card fields of the spec's payload are
  // dropped by the schema and never reach a log or a row.
  serve(router, app, api.subscribe, ({ scope, body }) =>
    checkoutInvoice(app, scope, body.invoiceId),
  );

  // Public: Asaas authenticates with its `asaas-access-token` header (checked before anything is
  // read, 401 otherwise); every other outcome, a repeat included, answers 200 so Asaas neither
  // retries nor pauses its queue.
  serve(router, app, api.asaasWebhook, async ({ req, body }) => {
    const result = await handlePaymentWebhook(app, 'asaas', req.headers, body);
    return { outcome: result.outcome };
  });

  serve(router, app, api.billingProvider, () => billingProviderView(app));

  serve(router, app, api.saveBillingProvider, async ({ body }) => {
    await saveBillingProvider(app, body);
    return billingProviderView(app);
  });

  return router;
}
