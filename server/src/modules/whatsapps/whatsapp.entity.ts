import type { ConnectionStatusName } from '@atende/shared';
import { EntitySchema } from 'typeorm';

/** The stored statuses: shared's `CONNECTION_STATUSES` (the connection answer's `status`). */
export type ConnectionStatus = ConnectionStatusName;

/** 'beta' is the Baileys provider (the name Whaticket clients send); 'simulator' the in-process one. */
export type ProviderName = 'beta' | 'simulator';

export interface Whatsapp {
  id: number;
  companyId: number;
  name: string;
  number: string;
  status: ConnectionStatus;
  qrcode: string;
  retries: number;
  isDefault: boolean;
  provider: ProviderName;
  /** `sha256:<hex>` of the API token (never the token itself). */
  token: string;
  tokenLast4: string;
  greetingMessage: string;
  complationMessage: string;
  outOfHoursMessage: string;
  ratingMessage: string;
  transferQueueId: number | null;
  timeToTransfer: number;
  promptId: number | null;
  expiresTicket: number;
  expiresInactiveMessage: string;
  timeUseBotQueues: number;
  maxUseBotQueues: number;
  createdAt: Date;
  updatedAt: Date;
}

const text = { type: String } as const;
const int = { type: Number } as const;

export const WhatsappEntity = new EntitySchema<Whatsapp>({
  name: 'Whatsapp',
  tableName: 'whatsapps',
  columns: {
    id: { type: Number, primary: true, generated: true },
    companyId: int,
    name: text,
    number: text,
    status: text,
    qrcode: text,
    retries: int,
    isDefault: { type: Boolean },
    provider: text,
    token: text,
    tokenLast4: text,
    greetingMessage: text,
    complationMessage: text,
    outOfHoursMessage: text,
    ratingMessage: text,
    transferQueueId: { type: Number, nullable: true },
    timeToTransfer: int,
    promptId: { type: Number, nullable: true },
    expiresTicket: int,
    expiresInactiveMessage: text,
    timeUseBotQueues: int,
    maxUseBotQueues: int,
    createdAt: { type: 'timestamptz', createDate: true },
    updatedAt: { type: 'timestamptz', updateDate: true },
  },
});
