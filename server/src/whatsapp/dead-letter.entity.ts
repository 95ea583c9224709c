import { EntitySchema } from 'typeorm';

/** A session event that could not be handled, kept for the admin (whatsapp/inbox.ts). */
export interface DeadLetter {
  id: number;
  companyId: number;
  whatsappId: number;
  inboxId: string;
  eventName: string;
  event: unknown;
  error: string;
  errorCode: string | null;
  attempts: number;
  receivedAt: Date;
  createdAt: Date;
}

export const DeadLetterEntity = new EntitySchema<DeadLetter>({
  name: 'SessionDeadLetter',
  tableName: 'session_dead_letters',
  columns: {
    id: { type: Number, primary: true, generated: true },
    companyId: { type: Number },
    whatsappId: { type: Number },
    inboxId: { type: 'bigint' },
    eventName: { type: String },
    event: { type: 'json' },
    error: { type: String },
    errorCode: { type: String, nullable: true },
    attempts: { type: Number },
    receivedAt: { type: 'timestamptz' },
    createdAt: { type: 'timestamptz', createDate: true },
  },
});
