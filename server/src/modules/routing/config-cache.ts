// What the routing step reads per message and that changes only when an admin edits it: the
// connection's messages and limits, its queues in menu order, each queue's option tree and the
// company's hours. Each process keeps a copy per company, tagged with the company's configuration
// version (`routing_config_versions`, bumped by triggers in the transaction of every write to
// those tables, see the migration RoutingConfigVersions). The routing step reads the version in
// the query it makes anyway (with the ticket's bot state); a copy with another version is read
// again. So a change is seen by the next message in every process, with nothing sent between
// processes and nothing for the writers to remember. Company settings have their own cache
// (`app.settings`, invalidated through Redis).
import type { ScheduleEntry } from '@atende/shared';
import type { AppContext } from '../../context.js';
import { byOption, type QueueOption } from '../queue-options/index.js';
import type { BotState } from './bot-state.js';
import type { ConnectionSettings, RoutingQueue } from './context.js';

interface CompanyCopy {
  version: number;
  connections: Map<number, Promise<ConnectionSettings | undefined>>;
  queues: Map<number, Promise<RoutingQueue[]>>;
  options: Map<'all', Promise<QueueOption[]>>;
  hours: Map<'all', Promise<ScheduleEntry[]>>;
}

/** Companies kept per process at most; the oldest copy goes first. */
const MAX_COMPANIES = 1_000;

const copies = new WeakMap<AppContext, Map<number, CompanyCopy>>();

/** The company's copy for `version`, started anew when the version moved. */
function copyOf(app: AppContext, companyId: number, version: number): CompanyCopy {
  let byCompany = copies.get(app);
  if (!byCompany) copies.set(app, (byCompany = new Map()));
  let copy = byCompany.get(companyId);
  if (!copy || copy.version !== version) {
    copy = {
      version,
      connections: new Map(),
      queues: new Map(),
      options: new Map(),
      hours: new Map(),
    };
    byCompany.delete(companyId);
    byCompany.set(companyId, copy);
    if (byCompany.size > MAX_COMPANIES) byCompany.delete(byCompany.keys().next().value!);
  }
  return copy;
}

/** A read shared by its callers; a failed one is forgotten so the next caller tries again. */
function remember<K, V>(map: Map<K, Promise<V>>, key: K, load: () => Promise<V>): Promise<V> {
  let entry = map.get(key);
  if (!entry) {
    entry = load();
    map.set(key, entry);
    entry.catch(() => map.delete(key));
  }
  return entry;
}

/** The version and the bot state of each ticket, in one round trip. */
export async function versionAndStates(
  app: AppContext,
  companyId: number,
  ticketIds: readonly number[],
): Promise<{ version: number; states: Map<number, BotState> }> {
  const [row] = (await app.ds.query(
    `SELECT COALESCE((SELECT version FROM routing_config_versions WHERE "companyId" = $1), 0)::float8
              AS version,
            COALESCE((SELECT json_agg(b) FROM ticket_bot_state b WHERE b."ticketId" = ANY($2::int[])),
              '[]') AS states`,
    [companyId, ticketIds],
  )) as {
    version: number;
    states: (Omit<BotState, 'botStartedAt'> & { botStartedAt: string })[];
  }[];
  const states = new Map<number, BotState>();
  for (const s of row!.states) {
    states.set(s.ticketId, { ...s, botStartedAt: new Date(s.botStartedAt) });
  }
  return { version: row!.version, states };
}

/** The cached reads of one company at one configuration version. */
export interface RoutingConfig {
  version: number;
  connection(whatsappId: number): Promise<ConnectionSettings | undefined>;
  /** The connection's queues in menu order. */
  queues(whatsappId: number): Promise<RoutingQueue[]>;
  /** The options of a queue under `parentId` (null: the first level), in their order. */
  options(queueId: number, parentId: number | null): Promise<QueueOption[]>;
  /** One of the company's options, by id. */
  option(id: number): Promise<QueueOption | undefined>;
  /** The company's hours (scheduleType company). */
  hours(): Promise<ScheduleEntry[]>;
}

export function routingConfig(app: AppContext, companyId: number, version: number): RoutingConfig {
  const copy = copyOf(app, companyId, version);
  // Every option tree of the company in one read (they are small).
  const companyOptions = () =>
    remember(copy.options, 'all', async () => {
      const rows = (await app.ds.query(
        `SELECT id, "companyId", "queueId", "parentId", title, message, option, "mediaPath",
                "mediaName", "createdAt", "updatedAt"
           FROM queue_options WHERE "companyId" = $1`,
        [companyId],
      )) as QueueOption[];
      return rows.sort(byOption);
    });
  return {
    version,
    connection: (whatsappId) =>
      remember(copy.connections, whatsappId, async () => {
        const [row] = (await app.ds.query(
          `SELECT id, "greetingMessage", "outOfHoursMessage", "complationMessage", "ratingMessage",
                  "expiresInactiveMessage", "promptId", "maxUseBotQueues", "timeUseBotQueues"
             FROM whatsapps WHERE id = $1 AND "companyId" = $2`,
          [whatsappId, companyId],
        )) as ConnectionSettings[];
        return row;
      }),
    queues: (whatsappId) =>
      remember(
        copy.queues,
        whatsappId,
        async () =>
          (await app.ds.query(
            `SELECT q.id, q.name, q."greetingMessage", q."outOfHoursMessage", q.schedules,
                    q."mediaPath", q."mediaName", q."promptId", q."integrationId"
               FROM whatsapp_queues wq JOIN queues q ON q.id = wq."queueId"
              WHERE wq."whatsappId" = $1 AND q."companyId" = $2
              ORDER BY q."orderQueue" NULLS LAST, q.name`,
            [whatsappId, companyId],
          )) as RoutingQueue[],
      ),
    options: async (queueId, parentId) =>
      (await companyOptions()).filter((o) => o.queueId === queueId && o.parentId === parentId),
    option: async (id) => (await companyOptions()).find((o) => o.id === id),
    hours: () =>
      remember(copy.hours, 'all', async () => {
        const [company] = (await app.ds.query('SELECT schedules FROM companies WHERE id = $1', [
          companyId,
        ])) as { schedules: ScheduleEntry[] }[];
        return company?.schedules ?? [];
      }),
  };
}
