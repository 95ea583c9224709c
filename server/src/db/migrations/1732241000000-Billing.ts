import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Billing (issue 15): invoices (one per company and due date), the charge each provider made for
 * an invoice, the payments that counted (one per provider payment id and per Pix end-to-end id),
 * and the platform's payment-provider settings (credentials sealed by lib/secret-box.ts).
 */
export class Billing1732241000000 implements MigrationInterface {
  name = 'Billing1732241000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE invoices (
        id serial PRIMARY KEY,
        "companyId" integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        detail varchar(255) NOT NULL,
        status varchar(10) NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'paid')),
        value numeric(12,2) NOT NULL CHECK (value > 0),
        "dueDate" date NOT NULL,
        txid varchar(25) NOT NULL UNIQUE CHECK (txid ~ '^[A-Za-z0-9]{1,25}$'),
        "paidAt" timestamptz,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      );
      CREATE UNIQUE INDEX invoices_company_due ON invoices ("companyId", "dueDate");

      CREATE TABLE invoice_charges (
        id serial PRIMARY KEY,
        "companyId" integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        "invoiceId" integer NOT NULL REFERENCES invoices(id) ON DELETE CASCADE,
        provider varchar(20) NOT NULL,
        "providerChargeId" varchar(100) NOT NULL,
        amount numeric(12,2) NOT NULL,
        "brCode" text NOT NULL,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        UNIQUE (provider, "providerChargeId"),
        UNIQUE ("invoiceId", provider)
      );
      CREATE INDEX invoice_charges_company ON invoice_charges ("companyId", "invoiceId");

      CREATE TABLE payments (
        id serial PRIMARY KEY,
        "companyId" integer NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
        "invoiceId" integer NOT NULL REFERENCES invoices(id) ON DELETE CASCADE,
        provider varchar(20) NOT NULL,
        "providerPaymentId" varchar(100) NOT NULL,
        "endToEndId" varchar(64),
        amount numeric(12,2) NOT NULL,
        "paidAt" timestamptz NOT NULL,
        -- false: the money arrived for an invoice already paid (kept, extends nothing).
        applied boolean NOT NULL,
        "dueDateBefore" date,
        "dueDateAfter" date,
        "createdAt" timestamptz NOT NULL DEFAULT now(),
        UNIQUE (provider, "providerPaymentId")
      );
      CREATE UNIQUE INDEX payments_end_to_end ON payments ("endToEndId")
        WHERE "endToEndId" IS NOT NULL;
      CREATE INDEX payments_company ON payments ("companyId", "invoiceId");

      CREATE TABLE billing_providers (
        provider varchar(20) PRIMARY KEY,
        active boolean NOT NULL DEFAULT false,
        settings jsonb NOT NULL DEFAULT '{}',
        secret text,
        "updatedAt" timestamptz NOT NULL DEFAULT now()
      );
      CREATE UNIQUE INDEX billing_providers_one_active ON billing_providers (active) WHERE active;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DELETE FROM durable_jobs WHERE kind = 'billing-invoices';
      DROP TABLE billing_providers;
      DROP TABLE payments;
      DROP TABLE invoice_charges;
      DROP TABLE invoices;
    `);
  }
}
