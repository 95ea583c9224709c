import { EntitySchema } from 'typeorm';

/** 'open' until a payment counts for it; the display status (admin §4) derives from this. */
export type InvoiceStatus = 'open' | 'paid';

export interface Invoice {
  id: number;
  companyId: number;
  /** The plan's name when it was generated. */
  detail: string;
  status: InvoiceStatus;
  /** numeric(12,2) as text: the plan's value when it was generated. */
  value: string;
  /** yyyy-MM-dd: the company due date this invoice pays. */
  dueDate: string;
  /** Our reference in the Pix code (field 62-05) and at the provider. */
  txid: string;
  paidAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export const InvoiceEntity = new EntitySchema<Invoice>({
  name: 'Invoice',
  tableName: 'invoices',
  columns: {
    id: { type: Number, primary: true, generated: true },
    companyId: { type: Number },
    detail: { type: String },
    status: { type: String },
    value: { type: 'numeric' },
    dueDate: { type: 'date' },
    txid: { type: String },
    paidAt: { type: 'timestamptz', nullable: true },
    createdAt: { type: 'timestamptz', createDate: true },
    updatedAt: { type: 'timestamptz', updateDate: true },
  },
});

/** The charge a provider made for an invoice (one per invoice and provider). */
export interface InvoiceCharge {
  id: number;
  companyId: number;
  invoiceId: number;
  provider: string;
  providerChargeId: string;
  amount: string;
  brCode: string;
  createdAt: Date;
}

export const InvoiceChargeEntity = new EntitySchema<InvoiceCharge>({
  name: 'InvoiceCharge',
  tableName: 'invoice_charges',
  columns: {
    id: { type: Number, primary: true, generated: true },
    companyId: { type: Number },
    invoiceId: { type: Number },
    provider: { type: String },
    providerChargeId: { type: String },
    amount: { type: 'numeric' },
    brCode: { type: 'text' },
    createdAt: { type: 'timestamptz', createDate: true },
  },
});

/** A payment that arrived; `applied` when it paid its invoice and extended the due date. */
export interface Payment {
  id: number;
  companyId: number;
  invoiceId: number;
  provider: string;
  providerPaymentId: string;
  endToEndId: string | null;
  amount: string;
  paidAt: Date;
  applied: boolean;
  dueDateBefore: string | null;
  dueDateAfter: string | null;
  createdAt: Date;
}

export const PaymentEntity = new EntitySchema<Payment>({
  name: 'Payment',
  tableName: 'payments',
  columns: {
    id: { type: Number, primary: true, generated: true },
    companyId: { type: Number },
    invoiceId: { type: Number },
    provider: { type: String },
    providerPaymentId: { type: String },
    endToEndId: { type: String, nullable: true },
    amount: { type: 'numeric' },
    paidAt: { type: 'timestamptz' },
    applied: { type: Boolean },
    dueDateBefore: { type: 'date', nullable: true },
    dueDateAfter: { type: 'date', nullable: true },
    createdAt: { type: 'timestamptz', createDate: true },
  },
});

/** Registered in src/db/entities.ts. */
export const billingEntities = [InvoiceEntity, InvoiceChargeEntity, PaymentEntity];
