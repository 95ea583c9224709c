import { renderTemplate, type CompanySettingKey } from '@atende/shared';
import type { ScheduleEntry } from '@atende/shared';
import type { AppContext } from '../../context.js';
import type { StoredInbound } from '../messages/index.js';
import type { TicketView } from '../tickets/index.js';
import { loadBotState, type BotState } from './bot-state.js';
import { now } from './clock.js';

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

async function loadConnectionQueues(app: AppContext, whatsappId: number): Promise<RoutingQueue[]> {
  return (await app.ds.query(
    `SELECT q.id, q.name, q."greetingMessage", q."outOfHoursMessage", q.schedules, q."mediaPath",
            q."mediaName", q."promptId", q."integrationId"
       FROM whatsapp_queues wq JOIN queues q ON q.id = wq."queueId"
      WHERE wq."whatsappId" = $1 ORDER BY q."orderQueue" NULLS LAST, q.name`,
    [whatsappId],
  )) as RoutingQueue[];
}

/** A company setting from the per-company cache, or its default. */
export const settingOf = (app: AppContext, companyId: number) => (key: CompanySettingKey) =>
  app.settings.value(companyId, key);

export const renderFor = (ticket: TicketView, at: Date) => (text: string) =>
  renderTemplate(text, { name: ticket.contact.name, protocol: ticket.id, now: at });

export async function routingContext(
  app: AppContext,
  stored: StoredInbound,
): Promise<RoutingContext | undefined> {
  const { companyId, whatsappId } = stored.connection;
  const connection = await loadConnection(app, companyId, whatsappId);
  if (!connection) return undefined;
  const at = now();
  return {
    app,
    stored,
    companyId,
    ticket: stored.ticket,
    connection,
    queues: await loadConnectionQueues(app, whatsappId),
    state: await loadBotState(app.ds, stored.ticket.id),
    answer: stored.message.body.trim(),
    now: at,
    setting: settingOf(app, companyId),
    render: renderFor(stored.ticket, at),
  };
}
