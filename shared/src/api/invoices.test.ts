import { describe, expect, it } from 'vitest';
import { billingProviderBody, manualPaymentBody, subscriptionBody } from './invoices.js';

describe('POST /subscription body (admin §7)', () => {
  it('keeps only invoiceId: price, plan and card fields are dropped by the parse', () => {
    const parsed = subscriptionBody.parse({
      invoiceId: 7,
      price: 0.01,
      plan: '{"price":0.01}',
      users: 999,
      connections: 999,
      firstName: 'Ana',
      nameOnCard: 'ANA',
      cardNumber: '4111111111111111',
      cvv: '123',
    });
    expect(parsed).toEqual({ invoiceId: 7 });
  });

  it.each([[{}], [{ invoiceId: 0 }], [{ invoiceId: '01' }], [{ invoiceId: 'x' }]])(
    'refuses %j',
    (body) => {
      expect(subscriptionBody.safeParse(body).success).toBe(false);
    },
  );
});

describe('manual confirmation body', () => {
  it.each([
    [{ invoiceId: 1 }, true],
    [{ invoiceId: 1, amount: '99.90', endToEndId: 'E12345678202601011200abcdefghijk' }, true],
    [{ invoiceId: 1, amount: '99.9' }, false],
    [{ invoiceId: 1, endToEndId: 'E123' }, false],
  ] as const)('%j → %s', (body, ok) => {
    expect(manualPaymentBody.safeParse(body).success).toBe(ok);
  });
});

describe('provider settings body', () => {
  it.each([
    [{ provider: 'static-pix', pixKey: 'a@b.com', merchantName: 'A', merchantCity: 'B' }, true],
    [{ provider: 'asaas', apiKey: 'k', webhookToken: 'x'.repeat(32) }, true],
    [{ provider: 'asaas', apiKey: 'k', webhookToken: 'short' }, false],
    [{ provider: 'efi', apiKey: 'k' }, false],
  ] as const)('%j → %s', (body, ok) => {
    expect(billingProviderBody.safeParse(body).success).toBe(ok);
  });
});
