/**
 * Shapes of the server answers the app reads, derived from the route table's answer schemas in
 * `@atende/shared` (one contract, no copy).
 */
import { FEATURE_PLAN_FLAGS } from '@atende/shared';
import type {
  ChatMessageAnswer,
  ConnectionStatusName,
  ContactAnswer,
  PlanAnswer,
  QueueAnswer,
  SessionAnswer,
  SessionUserAnswer,
  SettingAnswer,
  TagAnswer,
  TicketAnswer,
  UserAnswer,
  WhatsappAnswer,
} from '@atende/shared';

/** A queue as lists and pickers show it (a user's queues, a ticket's queue). */
export type Queue = Pick<QueueAnswer, 'id' | 'name' | 'color'>;

/** A tag as a ticket carries it. */
export type Tag = Pick<TagAnswer, 'id' | 'name' | 'color'>;

export type Contact = ContactAnswer;
export type Ticket = TicketAnswer;
export type Message = ChatMessageAnswer;

export type Setting = Pick<SettingAnswer, 'key' | 'value'>;

/** The signed-in user's company: due date, plan and settings. */
export type Company = SessionUserAnswer['company'];

/** The signed-in user (sign-in, refresh, `/auth/me`). */
export type User = SessionUserAnswer;

/** A user as the users list and dialog read it (no company). */
export type UserRow = UserAnswer;

export type AuthAnswer = SessionAnswer;

/** The plan flags that switch menu items and pages (core §2); shared's list, less `useInternal`. */
export const PLAN_FLAGS = FEATURE_PLAN_FLAGS;
export type PlanFlag = (typeof PLAN_FLAGS)[number];
export type PlanFlags = Record<PlanFlag, boolean>;

export type Plan = PlanAnswer;

export type ConnectionStatus = ConnectionStatusName;

/** A connection as pickers and the shell read it. */
export type WhatsappConnection = Pick<
  WhatsappAnswer,
  'id' | 'name' | 'status' | 'updatedAt' | 'qrcode' | 'retries' | 'isDefault'
>;

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
