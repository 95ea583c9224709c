import type { ConnectionStatusName } from '@atende/shared';

/** A connection as `/whatsapp` answers it (the token only for admins). */
export interface Connection {
  id: number;
  name: string;
  number: string | null;
  status: ConnectionStatusName;
  qrcode: string;
  retries: number;
  updatedAt: string;
  isDefault: boolean;
  provider: 'beta' | 'simulator';
  token?: string;
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
  queues: { id: number; name: string; color: string }[];
}

/** `company-{id}-whatsappSession` payload: the live part of a connection. */
export interface SessionUpdate {
  id: number;
  status: ConnectionStatusName;
  qrcode?: string;
  retries?: number;
  updatedAt?: string;
  pairingCode?: string;
}
