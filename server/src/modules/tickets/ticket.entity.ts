import { EntitySchema } from 'typeorm';
import type { TicketStatus } from '@atende/shared';

export interface Ticket {
  id: number;
  uuid: string;
  companyId: number;
  status: TicketStatus;
  contactId: number;
  whatsappId: number | null;
  userId: number | null;
  queueId: number | null;
  lastMessage: string;
  lastMessageAt: Date | null;
  unreadMessages: number;
  isGroup: boolean;
  chatbot: boolean;
  useIntegration: boolean;
  promptId: number | null;
  integrationId: number | null;
  acceptedAt: Date | null;
  closedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

const nullableInt = { type: Number, nullable: true } as const;

export const TicketEntity = new EntitySchema<Ticket>({
  name: 'Ticket',
  tableName: 'tickets',
  columns: {
    id: { type: Number, primary: true, generated: true },
    uuid: { type: 'uuid', generated: 'uuid' },
    companyId: { type: Number },
    status: { type: String },
    contactId: { type: Number },
    whatsappId: nullableInt,
    userId: nullableInt,
    queueId: nullableInt,
    lastMessage: { type: String },
    lastMessageAt: { type: 'timestamptz', nullable: true },
    unreadMessages: { type: Number },
    isGroup: { type: Boolean },
    chatbot: { type: Boolean },
    useIntegration: { type: Boolean },
    promptId: nullableInt,
    integrationId: nullableInt,
    acceptedAt: { type: 'timestamptz', nullable: true },
    closedAt: { type: 'timestamptz', nullable: true },
    createdAt: { type: 'timestamptz', createDate: true },
    updatedAt: { type: 'timestamptz', updateDate: true },
  },
});
