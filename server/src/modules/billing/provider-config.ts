// The platform's payment-provider settings: one row per provider in `billing_providers`, at most
// one active (a partial unique index). Public settings sit in `settings` (jsonb); credentials are
// sealed (lib/secret-box.ts) in `secret`, opened only to build an adapter, and never answered:
// the view masks them.
import { z } from 'zod';
import { SECRET_MASK, type BillingProviderBody, type BillingProviderKind } from '@atende/shared';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { secretBoxFromConfig } from '../../lib/secret-box.js';
import { foldAscii, MERCHANT_CITY_MAX, MERCHANT_NAME_MAX, pixKeyKind } from './pix.js';
import type { PaymentProvider } from './provider.js';
import { ASAAS_PRODUCTION_URL, asaasProvider } from './providers/asaas.js';
import { staticPixProvider } from './providers/static-pix.js';

const purpose = (kind: BillingProviderKind) => `billing-provider:${kind}`;

const staticSettings = z.object({
  pixKey: z.string(),
  merchantName: z.string(),
  merchantCity: z.string(),
});
const asaasSettings = z.object({ baseUrl: z.string().url() });
const asaasSecrets = z.object({ apiKey: z.string().min(1), webhookToken: z.string().min(1) });

interface Row {
  provider: BillingProviderKind;
  active: boolean;
  settings: unknown;
  secret: string | null;
}

const invalid = (reason: string) =>
  new AppError('ERR_BILLING_INVALID_SETTINGS', { params: { reason } });

/** Checks and splits a settings body into what may be shown and what is sealed. */
function split(
  app: AppContext,
  body: BillingProviderBody,
): { settings: Record<string, string>; secrets: Record<string, string> | null } {
  if (body.provider === 'static-pix') {
    const pixKey = body.pixKey.trim();
    if (!pixKeyKind(pixKey)) throw invalid('chave Pix');
    if (!foldAscii(body.merchantName, MERCHANT_NAME_MAX)) throw invalid('nome do recebedor');
    if (!foldAscii(body.merchantCity, MERCHANT_CITY_MAX)) throw invalid('cidade do recebedor');
    return {
      settings: { pixKey, merchantName: body.merchantName, merchantCity: body.merchantCity },
      secrets: null,
    };
  }
  const baseUrl = body.baseUrl ?? ASAAS_PRODUCTION_URL;
  // Plain http only outside production (a local stand-in in tests and development).
  if (!baseUrl.startsWith('https://') && app.config.NODE_ENV === 'production') {
    throw invalid('baseUrl must be https');
  }
  return {
    settings: { baseUrl },
    secrets: { apiKey: body.apiKey, webhookToken: body.webhookToken },
  };
}

/** Stores a provider's settings (secrets sealed) and makes it the active one. */
export async function saveBillingProvider(
  app: AppContext,
  body: BillingProviderBody,
): Promise<void> {
  const { settings, secrets } = split(app, body);
  const box = secretBoxFromConfig(app.config);
  const sealed = secrets ? box.seal(JSON.stringify(secrets), purpose(body.provider)) : null;
  await app.ds.transaction(async (tx) => {
    await tx.query('UPDATE billing_providers SET active = false WHERE active AND provider <> $1', [
      body.provider,
    ]);
    await tx.query(
      `INSERT INTO billing_providers (provider, active, settings, secret, "updatedAt")
       VALUES ($1, true, $2, $3, now())
       ON CONFLICT (provider) DO UPDATE SET active = true, settings = EXCLUDED.settings,
         secret = EXCLUDED.secret, "updatedAt" = now()`,
      [body.provider, JSON.stringify(settings), sealed],
    );
  });
}

/** What the settings screen may show: public settings, secrets as the mask. */
export async function billingProviderView(
  app: AppContext,
): Promise<{ provider: BillingProviderKind; active: boolean; settings: Record<string, string> }[]> {
  const rows = (await app.ds.query(
    'SELECT provider, active, settings, secret FROM billing_providers ORDER BY provider',
  )) as Row[];
  return rows.map((r) => ({
    provider: r.provider,
    active: r.active,
    settings: {
      ...(r.settings as Record<string, string>),
      ...(r.secret ? { apiKey: SECRET_MASK, webhookToken: SECRET_MASK } : {}),
    },
  }));
}

function adapterOf(app: AppContext, row: Row): PaymentProvider {
  if (row.provider === 'static-pix') return staticPixProvider(staticSettings.parse(row.settings));
  const box = secretBoxFromConfig(app.config);
  const secrets = asaasSecrets.parse(JSON.parse(box.open(row.secret ?? '', purpose('asaas'))));
  return asaasProvider(asaasSettings.parse(row.settings), secrets);
}

/** The adapter checkouts use now, or null when the platform set none. */
export async function activeProvider(app: AppContext): Promise<PaymentProvider | null> {
  const [row] = (await app.ds.query(
    'SELECT provider, active, settings, secret FROM billing_providers WHERE active',
  )) as Row[];
  return row ? adapterOf(app, row) : null;
}

/**
 * The adapter of a provider whether active or not (a charge made before a switch may still be
 * paid), or null when it was never set up.
 */
export async function providerOf(app: AppContext, kind: string): Promise<PaymentProvider | null> {
  const [row] = (await app.ds.query(
    'SELECT provider, active, settings, secret FROM billing_providers WHERE provider = $1',
    [kind],
  )) as Row[];
  return row ? adapterOf(app, row) : null;
}
