/**
 * Shapes of the server answers the app reads. Those of the route table are derived from its
 * answer schemas in `@atende/shared` (one contract, no copy); the rest wait for their endpoints
 * to join the table.
 */
import type {
  ContactAnswer,
  ChatMessageAnswer,
  Profile,
  QueueAnswer,
  TagAnswer,
  TicketAnswer,
} from '@atende/shared';

/** A queue as lists and pickers show it (a user's queues, a ticket's queue). */
export type Queue = Pick<QueueAnswer, 'id' | 'name' | 'color'>;

/** A tag as a ticket carries it. */
export type Tag = Pick<TagAnswer, 'id' | 'name' | 'color'>;

export type Contact = ContactAnswer;
export type Ticket = TicketAnswer;
export type Message = ChatMessageAnswer;

export interface Setting {
  key: string;
  value: string;
}

export interface Company {
  id: number;
  name: string;
  dueDate: string;
  settings: Setting[];
}

export interface User {
  id: number;
  name: string;
  email: string;
  profile: Profile;
  super: boolean;
  companyId: number;
  whatsappId: number | null;
  allTicket: 'enabled' | 'desabled';
  queues: Queue[];
  company: Company;
}

export interface AuthAnswer {
  token: string;
  user: User;
}

export const PLAN_FLAGS = [
  'useCampaigns',
  'useSchedules',
  'useInternalChat',
  'useExternalApi',
  'useKanban',
  'useOpenAi',
  'useIntegrations',
] as const;
export type PlanFlag = (typeof PLAN_FLAGS)[number];
export type PlanFlags = Record<PlanFlag, boolean>;

export interface Plan extends PlanFlags {
  id: number;
  name: string;
  users: number;
  connections: number;
  queues: number;
  value: number;
}

export type ConnectionStatus =
  'CONNECTED' | 'qrcode' | 'PAIRING' | 'DISCONNECTED' | 'TIMEOUT' | 'OPENING';

export interface WhatsappConnection {
  id: number;
  name: string;
  status: ConnectionStatus;
  updatedAt: string;
  qrcode?: string;
  retries?: number;
  isDefault?: boolean;
}

/** The media kinds the thread draws (core §3); the server may send others. */
export type MediaType =
  | 'chat'
  | 'image'
  | 'audio'
  | 'video'
  | 'application'
  | 'document'
  | 'locationMessage'
  | 'contactMessage'
  | 'vcard'
  | 'call_log';
