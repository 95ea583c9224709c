// The platform's own Pix key: a static BR Code carrying the invoice's value and txid. No outside
// service is asked anything; the super user confirms the payment by hand once it shows in the
// platform's bank account (payments.ts, confirmManualPayment).
import { brCode } from '../pix.js';
import type { PaymentProvider } from '../provider.js';

export interface StaticPixSettings {
  pixKey: string;
  merchantName: string;
  merchantCity: string;
}

export function staticPixProvider(settings: StaticPixSettings): PaymentProvider {
  return {
    kind: 'static-pix',
    async createCharge({ invoice }) {
      return {
        providerChargeId: invoice.txid,
        brCode: brCode({
          key: settings.pixKey,
          amount: invoice.value,
          merchantName: settings.merchantName,
          merchantCity: settings.merchantCity,
          txid: invoice.txid,
        }),
      };
    },
  };
}
