import { renderTemplate, type CompanySettingKey } from '@atende/shared';
import type { ScheduleEntry } from '@atende/shared';
import type { AppContext } from '../../context.js';
import type { StoredInbound } from '../messages/index.js';
import type { TicketView } from '../tickets/index.js';
import type { BotState } from './bot-state.js';
import { now } from './clock.js';
import { routingConfig, versionAndStates, type RoutingConfig } from './config-cache.js';

export interface ConnectionSettings {
  id: number;
  greetingMessage: string;
  outOfHoursMessage: string;
  complationMessage: string;
  ratingMessage: string;
  expiresInactiveMessage: string;
  promptId: number | null;
  maxUseBotQueues: number;
  timeUseBotQueues: number;
}

export interface RoutingQueue {
  id: number;
  name: string;
  greetingMessage: string;
  outOfHoursMessage: string;
  schedules: ScheduleEntry[];
  mediaPath: string | null;
  mediaName: string | null;
  promptId: number | null;
  integrationId: number | null;
}

/** Everything a rule needs about one inbound message, read once. */
export interface RoutingContext {
  app: AppContext;
  stored: StoredInbound;
  companyId: number;
  ticket: TicketView;
  connection: ConnectionSettings;
  /** The connection's queues in menu order. */
  queues: RoutingQueue[];
  state: BotState | undefined;
  /** The company's cached configuration (option trees, hours) at the version read now. */
  config: RoutingConfig;
  /** The customer's text, trimmed. */
  answer: string;
  now: Date;
  setting: (key: CompanySettingKey) => Promise<string>;
  render: (text: string) => string;
}

export async function loadConnection(
  app: AppContext,
  companyId: number,
  whatsappId: number,
): Promise<ConnectionSettings | undefined> {
  const [row] = (await app.ds.query(
    `SELECT id, "greetingMessage", "outOfHoursMessage", "complationMessage", "ratingMessage",
            "expiresInactiveMessage", "promptId", "maxUseBotQueues", "timeUseBotQueues"
       FROM whatsapps WHERE id = $1 AND "companyId" = $2`,
    [whatsappId, companyId],
  )) as ConnectionSettings[];
  return row;
}

/** A company setting from the per-company cache, or its default. */
export const settingOf = (app: AppContext, companyId: number) => (key: CompanySettingKey) =>
  app.settings.value(companyId, key);

export const renderFor = (ticket: TicketView, at: Date) => (text: string) =>
  renderTemplate(text, { name: ticket.contact.name, protocol: ticket.id, now: at });

/** What was read for the message before its rules run (several messages share the reads). */
export interface RoutingReads {
  version: number;
  state: BotState | undefined;
}

export async function routingContext(
  app: AppContext,
  stored: StoredInbound,
  reads?: RoutingReads,
): Promise<RoutingContext | undefined> {
  const { companyId, whatsappId } = stored.connection;
  let known = reads;
  if (!known) {
    const read = await versionAndStates(app, companyId, [stored.ticket.id]);
    known = { version: read.version, state: read.states.get(stored.ticket.id) };
  }
  const { version, state } = known;
  const config = routingConfig(app, companyId, version);
  const connection = await config.connection(whatsappId);
  if (!connection) return undefined;
  const at = now();
  return {
    app,
    stored,
    companyId,
    ticket: stored.ticket,
    connection,
    queues: await config.queues(whatsappId),
    state,
    config,
    answer: stored.message.body.trim(),
    now: at,
    setting: settingOf(app, companyId),
    render: renderFor(stored.ticket, at),
  };
}
