/** Shapes of the server answers the app reads (core §3, §7; the lead's contract). */
import type { Profile, TicketStatus } from '@atende/shared';

export interface Queue {
  id: number;
  name: string;
  color: string;
}

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

export interface Tag {
  id: number;
  name: string;
  color: string;
}

export interface Contact {
  id: number;
  name: string;
  number: string;
  email?: string;
  profilePicUrl?: string;
  urlPicture?: string;
  isGroup?: boolean;
  extraInfo?: { id?: number; name: string; value: string }[];
}

export interface Ticket {
  id: number;
  uuid: string;
  status: TicketStatus;
  contactId: number;
  contact: Contact;
  userId: number | null;
  user?: { id: number; name: string } | null;
  queueId: number | null;
  queue?: Queue | null;
  whatsappId: number | null;
  whatsapp?: { id: number; name: string } | null;
  tags?: Tag[];
  lastMessage?: string;
  unreadMessages?: number;
  updatedAt: string;
  isGroup?: boolean;
  chatbot?: boolean;
  useIntegration?: boolean;
  promptId?: number | null;
  integrationId?: number | null;
}

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

export interface Message {
  id: number | string;
  ticketId: number;
  body: string;
  fromMe: boolean;
  read?: boolean;
  ack: number;
  mediaType?: MediaType | string | null;
  mediaUrl?: string | null;
  /** The original name of a file (not sent by every server yet: see fileNameOf). */
  fileName?: string | null;
  isDeleted?: boolean;
  isEdited?: boolean;
  quotedMsg?: Message | null;
  contact?: Contact | null;
  createdAt: string;
  userId?: number | null;
}
