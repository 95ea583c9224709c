// `POST /subscription` (admin §2, §4, §7): the Pix screen for one of the caller's invoices. The
// amount is the invoice's (the plan's when it was generated); nothing the client sends about
// price, plan or card is read. One charge per invoice and provider: opening the checkout again
// shows the same code.
import { DEFAULT_TIME_ZONE, localDay, type SubscriptionAnswer } from '@atende/shared';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import type { TenantScope } from '../../http/tenant.js';
import { CompanyEntity } from '../companies/index.js';
import { billingNow } from './clock.js';
import { InvoiceEntity } from './entities.js';
import { activeProvider } from './provider-config.js';
import { scheduleChargeCheck } from './reconcile.js';

export async function checkoutInvoice(
  app: AppContext,
  scope: TenantScope,
  invoiceId: number,
): Promise<SubscriptionAnswer> {
  const provider = await activeProvider(app);
  if (!provider) throw new AppError('ERR_BILLING_NOT_CONFIGURED');
  let armCheck: (() => Promise<void>) | undefined;
  const answer = await app.ds.transaction(async (tx) => {
    // The invoice row stays locked while the provider is asked: two checkouts at once make one
    // charge, and a payment for it waits until the charge is stored.
    const invoice = await scope
      .with(tx)
      .repo(InvoiceEntity, 'ERR_NO_INVOICE_FOUND')
      .query('i')
      .andWhere('i.id = :invoiceId', { invoiceId })
      .setLock('pessimistic_write')
      .getOne();
    if (!invoice) throw new AppError('ERR_NO_INVOICE_FOUND');
    if (invoice.status === 'paid') throw new AppError('ERR_INVOICE_ALREADY_PAID');
    const answer = (brCode: string, imageBase64?: string): SubscriptionAnswer => ({
      invoiceId: invoice.id,
      valor: { original: invoice.value },
      qrcode: { qrcode: brCode, ...(imageBase64 ? { imagemQrcode: imageBase64 } : {}) },
      provider: provider.kind,
    });
    const [existing] = (await tx.query(
      `SELECT "brCode" FROM invoice_charges WHERE "invoiceId" = $1 AND provider = $2`,
      [invoice.id, provider.kind],
    )) as { brCode: string }[];
    if (existing) return answer(existing.brCode);
    const company = await tx.getRepository(CompanyEntity).findOneByOrFail({ id: scope.companyId });
    const charge = await provider.createCharge({
      invoice,
      company,
      today: localDay(billingNow(), DEFAULT_TIME_ZONE),
    });
    const [stored] = (await tx.query(
      `INSERT INTO invoice_charges ("companyId", "invoiceId", provider, "providerChargeId", amount, "brCode")
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      [
        scope.companyId,
        invoice.id,
        provider.kind,
        charge.providerChargeId,
        invoice.value,
        charge.brCode,
      ],
    )) as { id: number }[];
    // A provider that can be asked again is asked again, in case its webhook never comes.
    if (provider.readCharge) {
      armCheck = (await scheduleChargeCheck(app, stored!.id, scope.companyId, tx)).trigger;
    }
    return answer(charge.brCode, charge.imageBase64);
  });
  await armCheck?.();
  return answer;
}
