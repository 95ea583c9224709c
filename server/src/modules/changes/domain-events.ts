// Domain events: the state changes other parts react to (a message stored, a ticket closed...).
// A writer adds them to its change list (`changes.events.push(...)`) and they are written in the
// transaction that makes the change, beside its change-feed rows. After commit they are numbered
// (`seq`: one global order, assigned by one numbering transaction at a time, so a reader never
// sees a lower number appear after a higher one), and each consumer reads them in that order
// through its own durable cursor (`domain_event_cursors`): at least once, so handlers are
// idempotent; a consumer that crashes resumes after the last event it finished.
//
// One instance per consumer name at a time across processes: a process runs a consumer only while
// it holds the consumer's advisory lock, on a connection of its own (a killed process loses it at
// once). The trigger is an in-process wake-up right after commit, a Redis message for the other
// processes, a short poll, and a pass at start.
import pg from 'pg';
import type { EntityManager } from 'typeorm';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import type { WorkerStarter } from '../../jobs/bullmq.js';
import { createRedis } from '../../lib/redis.js';
import { logger } from '../../logger.js';
import { pendingInsertSql } from './change-log.js';

const id = z.number().int().positive();

/** Every event type and its payload. A payload is parsed again when read. */
export const DOMAIN_EVENT_PAYLOADS = {
  /** A message row was written: from the session (`inbound`, our own phone's too), an agent or the bot. */
  'message.stored': z.object({
    messageId: id,
    ticketId: id,
    whatsappId: id.nullable(),
    fromMe: z.boolean(),
    /** `inbound` from the session, else the sender of an outgoing message (messages/outgoing.ts). */
    origin: z.enum([
      'inbound',
      'agent',
      'greeting',
      'bot',
      'rating',
      'notice',
      'timer',
      'integration',
      'ai',
      'campaign',
      'schedule',
      'api',
    ]),
    /** The message opened a new ticket. */
    ticketCreated: z.boolean(),
  }),
  /** WhatsApp accepted one of our messages (the send job's final result). */
  'message.sent': z.object({ messageId: id, ticketId: id }),
  'ticket.created': z.object({ ticketId: id, contactId: id, whatsappId: id.nullable() }),
  'ticket.transferred': z.object({
    ticketId: id,
    fromQueueId: id.nullable(),
    toQueueId: id.nullable(),
    fromUserId: id.nullable(),
    toUserId: id.nullable(),
    by: z.enum(['agent', 'system']),
  }),
  'ticket.closed': z.object({ ticketId: id, by: z.enum(['agent', 'system']) }),
  'ticket.reopened': z.object({ ticketId: id }),
  'contact.created': z.object({ contactId: id }),
};

export type DomainEventType = keyof typeof DOMAIN_EVENT_PAYLOADS;
export type DomainEventPayload<K extends DomainEventType> = z.infer<
  (typeof DOMAIN_EVENT_PAYLOADS)[K]
>;

/** What a writer records. */
export type DomainEventInput = {
  [K in DomainEventType]: { type: K; payload: DomainEventPayload<K> };
}[DomainEventType];

/** What a consumer reads. */
export interface DomainEvent<K extends DomainEventType = DomainEventType> {
  seq: number;
  companyId: number;
  type: K;
  payload: DomainEventPayload<K>;
  createdAt: Date;
}

export type DomainEventHandlers = {
  [K in DomainEventType]?: (app: AppContext, event: DomainEvent<K>) => Promise<void>;
};

export type DomainEventRunHandlers = {
  [K in DomainEventType]?: (app: AppContext, events: DomainEvent<K>[]) => Promise<void>;
};

/**
 * A reader of the events, declared in its module's manifest (`consumers`). `name` keys its cursor
 * and its lock: renaming it starts a new cursor. Handlers must be idempotent: after a crash the
 * event being handled is handled again.
 */
export interface DomainEventConsumer {
  name: string;
  on: DomainEventHandlers;
  /**
   * Optional, per type: handles a run of consecutive events of that type at once, with the effect
   * of `on[type]` on each in order (one read and one write for the run instead of one each). The
   * cursor then moves once past the run. A run whose handler throws is handled again one event at
   * a time through `on`, so a bad event is retried and skipped alone.
   */
  runs?: DomainEventRunHandlers;
  /** Where a new cursor starts: every retained event (`first`, the default) or the newest. */
  startAt?: 'first' | 'head';
}

export const defineConsumer = (consumer: DomainEventConsumer) => consumer;

/** Events read per query. */
const BATCH = 200;
/** A handler that fails this many times in a row on one event: the event is logged and skipped. */
export const MAX_HANDLER_FAILURES = 5;
/** The safety net when a wake-up was missed (another process wrote, Redis was down). */
export const POLL_MS = 1_000;
/** Numbered events are deleted once every live consumer passed them and they are this old. */
export const DOMAIN_EVENT_RETENTION_MS = 7 * 86_400_000;
/** A cursor not moved for this long is a consumer that no longer exists: it holds nothing back. */
export const STALE_CURSOR_MS = 30 * 86_400_000;
const PRUNE_EVERY_MS = 3_600_000;
/** Advisory lock keys: (CONSUMER_LOCK, hashtext(name)) per consumer; NUMBER_LOCK for numbering. */
const CONSUMER_LOCK = 727_003;
const NUMBER_LOCK = 727_004;

const channelOf = (app: AppContext) => `${app.prefix}:domain-events`;

/** The INSERT of a transaction's events; `company` and `json` are placeholders or safe literals. */
export const domainEventInsertSql = (company: string, json: string) =>
  `INSERT INTO domain_events ("companyId", type, payload)
   SELECT ${company}, x.type, x.payload
     FROM jsonb_to_recordset(${json}::jsonb) AS x(n int, type text, payload jsonb)
    ORDER BY x.n`;

/**
 * One statement that writes a transaction's pending changes (`$2`, `pendingJson`) and its domain
 * events (`$3`, `domainEventJson`) for company `$1`, answering the pending ids: one round trip.
 */
export const pendingWithEventsSql = () =>
  pendingInsertSql('$1', '$2', `events AS (${domainEventInsertSql('$1', '$3')}), `);

export const domainEventJson = (events: readonly DomainEventInput[]) =>
  JSON.stringify(events.map((e, n) => ({ n, type: e.type, payload: e.payload })));

/** Writes the events inside the transaction that made the change. */
export async function recordDomainEvents(
  tx: EntityManager,
  companyId: number,
  events: readonly DomainEventInput[],
): Promise<void> {
  if (!events.length) return;
  await tx.query(domainEventInsertSql('$1', '$2'), [companyId, domainEventJson(events)]);
}

/**
 * One numbering transaction, in one round trip (its text holds only constants): the advisory
 * lock, taken before the statement's snapshot, then the numbers. Answers how many it numbered and
 * the last number given so far (by any process).
 */
async function numberOnce(app: AppContext): Promise<{ numbered: number; last: number }> {
  const runner = app.ds.createQueryRunner();
  const client = (await runner.connect()) as {
    query: (sql: string) => Promise<{ rows: unknown[] }[]>;
  };
  try {
    const results = await client.query(`BEGIN;
      SELECT pg_advisory_xact_lock(${NUMBER_LOCK});
      WITH p AS (
        SELECT id, row_number() OVER (ORDER BY id) AS rn FROM domain_events
         WHERE seq IS NULL ORDER BY id LIMIT ${BATCH * 5}),
      b AS (SELECT last FROM domain_event_counter WHERE id = 1),
      u AS (UPDATE domain_events d SET seq = b.last + p.rn FROM p, b WHERE d.id = p.id),
      c AS (UPDATE domain_event_counter SET last = last + (SELECT count(*) FROM p) WHERE id = 1)
      SELECT count(*)::int AS n, ((SELECT last FROM b) + count(*))::float8 AS last FROM p;
      COMMIT;`);
    const [row] = results[2]!.rows as { n: number; last: number }[];
    return { numbered: row!.n, last: row!.last };
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    await runner.release();
  }
}

/**
 * Numbers committed events in the order they were written. One numbering transaction at a time
 * (an advisory lock, taken before the statement's snapshot), so numbers only ever grow.
 */
export async function numberDomainEvents(app: AppContext): Promise<number> {
  return (await numberAll(app)).numbered;
}

async function numberAll(app: AppContext): Promise<{ numbered: number; last: number }> {
  let total = 0;
  for (;;) {
    const { numbered, last } = await numberOnce(app);
    total += numbered;
    if (numbered < BATCH * 5) return { numbered: total, last };
  }
}

/** Deletes events every live consumer has passed and that are older than the retention. */
export async function pruneDomainEvents(
  app: AppContext,
  retentionMs = DOMAIN_EVENT_RETENTION_MS,
): Promise<number> {
  const [row] = (await app.ds.query(
    `WITH floor AS (
       SELECT min(position) AS upto FROM domain_event_cursors
        WHERE "updatedAt" > now() - ($2::float8 * interval '1 millisecond')),
     gone AS (
       DELETE FROM domain_events WHERE seq <= (SELECT upto FROM floor)
          AND "createdAt" < now() - ($1::float8 * interval '1 millisecond') RETURNING 1)
     SELECT count(*)::int AS n FROM gone`,
    [retentionMs, STALE_CURSOR_MS],
  )) as { n: number }[];
  return row!.n;
}

interface Row {
  seq: number;
  companyId: number;
  type: string;
  payload: unknown;
  createdAt: Date;
}

/** The running consumers of one process (its worker role). */
export class DomainEventPump {
  private lockClient: pg.Client | undefined;
  private subscriber: ReturnType<typeof createRedis> | undefined;
  private readonly held = new Set<string>();
  /**
   * The cursors of the consumers this process holds, as it last read or wrote them: only the
   * holder of a consumer's lock moves its cursor, so the copy stays true while the lock is held.
   */
  private readonly cursors = new Map<string, { position: number; failures: number }>();
  /** The last number given to an event, as of this process's latest numbering. */
  private head = Number.POSITIVE_INFINITY;
  /** A consumer whose handler failed waits until then (ms) before its next try. */
  private readonly retryAt = new Map<string, number>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private running: Promise<void> | undefined;
  private again = false;
  private closed = false;
  private lastPrune = Date.now();

  constructor(
    private readonly app: AppContext,
    private readonly consumers: readonly DomainEventConsumer[],
    private readonly options: { pollMs?: number; redisUrl?: string } = {},
  ) {}

  async start(): Promise<void> {
    const redisUrl = this.options.redisUrl ?? this.app.config.REDIS_URL;
    this.subscriber = createRedis(redisUrl);
    this.subscriber.on('message', () => this.wake());
    await this.subscriber.subscribe(channelOf(this.app));
    const poll = setInterval(() => this.wake(), this.options.pollMs ?? POLL_MS);
    poll.unref();
    this.timers.add(poll);
    this.wake();
    await this.idle();
  }

  /** Runs a pass now, or right after the one running. */
  wake(): void {
    if (this.closed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        try {
          await this.pass();
        } catch (err) {
          if (!this.closed) logger.warn({ err }, 'domain event pass failed');
        }
      } while (this.again && !this.closed);
    })().finally(() => {
      this.running = undefined;
    });
  }

  /** Resolves once no pass is running (tests; start). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /**
   * Resolves once every event written so far is numbered and every consumer's cursor is past it
   * (tests wait on this instead of on time).
   */
  async settled(timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const names = this.consumers.map((c) => c.name);
    for (;;) {
      this.wake();
      await this.idle();
      const [row] = (await this.app.ds.query(
        `SELECT EXISTS (SELECT 1 FROM domain_events WHERE seq IS NULL) AS unnumbered,
                (SELECT count(*)::int FROM domain_event_cursors c, domain_event_counter n
                  WHERE c.consumer = ANY($1) AND c.position >= n.last) AS done`,
        [names],
      )) as { unnumbered: boolean; done: number }[];
      if (!row!.unnumbered && row!.done === names.length) return;
      if (Date.now() > deadline) throw new Error('domain events not settled in time');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Whether this process runs every consumer (then nobody else needs telling). */
  holdsAll(): boolean {
    return this.consumers.every((c) => this.held.has(c.name));
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    await this.idle();
    this.subscriber?.disconnect();
    this.held.clear();
    this.cursors.clear();
    await this.lockClient?.end().catch(() => undefined);
    this.lockClient = undefined;
  }

  private async pass(): Promise<void> {
    const { numbered, last } = await numberAll(this.app);
    this.head = last;
    if (numbered && !this.holdsAll()) await announce(this.app);
    await this.takeLocks();
    for (const consumer of this.consumers) {
      if (this.closed) return;
      if ((this.retryAt.get(consumer.name) ?? 0) > Date.now()) continue;
      if (this.held.has(consumer.name)) await this.drain(consumer);
    }
    if (Date.now() - this.lastPrune > PRUNE_EVERY_MS) {
      this.lastPrune = Date.now();
      await pruneDomainEvents(this.app).catch((err: unknown) =>
        logger.warn({ err }, 'domain event pruning failed'),
      );
    }
  }

  private async lockConnection(): Promise<pg.Client> {
    if (this.lockClient) return this.lockClient;
    const url = (this.app.ds.options as { url?: string }).url;
    const client = new pg.Client({ connectionString: url });
    // A lost connection loses its locks: stop running the consumers until they are taken again.
    const lost = (err?: unknown) => {
      if (this.lockClient !== client) return;
      if (!this.closed) logger.warn({ err }, 'domain event lock connection lost');
      this.lockClient = undefined;
      this.held.clear();
      this.cursors.clear();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    await client.connect();
    this.lockClient = client;
    return client;
  }

  private async takeLocks(): Promise<void> {
    const wanted = this.consumers.filter((c) => !this.held.has(c.name));
    if (!wanted.length) return;
    const client = await this.lockConnection();
    for (const consumer of wanted) {
      const { rows } = await client.query<{ ok: boolean }>(
        'SELECT pg_try_advisory_lock($1, hashtext($2)) AS ok',
        [CONSUMER_LOCK, consumer.name],
      );
      if (!rows[0]?.ok) continue;
      await this.app.ds.query(
        `INSERT INTO domain_event_cursors (consumer, position)
         SELECT $1, CASE WHEN $2 THEN last ELSE 0 END FROM domain_event_counter WHERE id = 1
         ON CONFLICT (consumer) DO NOTHING`,
        [consumer.name, consumer.startAt === 'head'],
      );
      this.held.add(consumer.name);
    }
  }

  /** Reads the consumer's events after its cursor and hands them over, in order. */
  private async drain(consumer: DomainEventConsumer): Promise<void> {
    const moveTo = async (seq: number) => {
      await this.app.ds.query(
        `UPDATE domain_event_cursors SET position = $2, failures = 0, "lastError" = NULL,
                "updatedAt" = now() WHERE consumer = $1 AND position < $2`,
        [consumer.name, seq],
      );
      // As the statement: a cursor already there keeps its failure count.
      const known = this.cursors.get(consumer.name);
      if (!known || known.position < seq)
        this.cursors.set(consumer.name, { position: seq, failures: 0 });
    };
    for (;;) {
      const known = this.cursors.get(consumer.name);
      // Nothing numbered past the cursor: no read at all.
      if (known && known.position >= this.head) return;
      const cursor =
        known ??
        ((
          (await this.app.ds.query(
            `SELECT position::float8 AS position, failures FROM domain_event_cursors
              WHERE consumer = $1`,
            [consumer.name],
          )) as { position: number; failures: number }[]
        )[0] as { position: number; failures: number } | undefined);
      if (!cursor) return;
      this.cursors.set(consumer.name, { ...cursor });
      const rows = (await this.app.ds.query(
        `SELECT seq::float8 AS seq, "companyId", type, payload, "createdAt" FROM domain_events
          WHERE seq > $1 ORDER BY seq LIMIT ${BATCH}`,
        [cursor.position],
      )) as Row[];
      let passed = cursor.position;
      // Rows up to this index are handled one at a time (their run's handler failed).
      let singleUntil = -1;
      for (let i = 0; i < rows.length; i++) {
        const row = rows[i]!;
        if (this.closed || !this.held.has(consumer.name)) break;
        if (
          i > singleUntil &&
          cursor.failures === 0 &&
          consumer.runs?.[row.type as DomainEventType]
        ) {
          let end = i + 1;
          while (end < rows.length && rows[end]!.type === row.type) end++;
          if (end - i > 1) {
            if (await this.handleRun(consumer, rows.slice(i, end))) {
              passed = rows[end - 1]!.seq;
              await moveTo(passed);
              i = end - 1;
              continue;
            }
            singleUntil = end - 1;
          }
        }
        const outcome = await this.handle(consumer, row, cursor.failures);
        if (outcome === 'retry') {
          if (passed > cursor.position) await moveTo(passed);
          return;
        }
        passed = row.seq;
        // Only a handled event is worth a write of its own; skipped ones move with the next.
        if (outcome === 'handled') await moveTo(passed);
        cursor.failures = 0;
      }
      if (passed > cursor.position) await moveTo(passed);
      if (rows.length < BATCH || this.closed || !this.held.has(consumer.name)) return;
    }
  }

  /** A run of events of one type through the consumer's run handler; false when it threw. */
  private async handleRun(consumer: DomainEventConsumer, rows: Row[]): Promise<boolean> {
    const type = rows[0]!.type as DomainEventType;
    const handler = consumer.runs?.[type] as
      ((app: AppContext, events: DomainEvent[]) => Promise<void>) | undefined;
    if (!handler) return false;
    const schema = DOMAIN_EVENT_PAYLOADS[type];
    const events: DomainEvent[] = [];
    for (const row of rows) {
      const parsed = schema.safeParse(row.payload);
      // One that does not parse is left to the single path, which logs and skips it.
      if (!parsed.success) return false;
      events.push({ ...row, type, payload: parsed.data });
    }
    try {
      await handler(this.app, events);
      return true;
    } catch (err) {
      logger.warn(
        { err, consumer: consumer.name, from: rows[0]!.seq, to: rows[rows.length - 1]!.seq },
        'domain event run failed: handled one by one',
      );
      return false;
    }
  }

  private async handle(
    consumer: DomainEventConsumer,
    row: Row,
    failures: number,
  ): Promise<'handled' | 'skipped' | 'retry'> {
    const handler = consumer.on[row.type as DomainEventType] as
      ((app: AppContext, event: DomainEvent) => Promise<void>) | undefined;
    if (!handler) return 'skipped';
    const schema = DOMAIN_EVENT_PAYLOADS[row.type as DomainEventType];
    const parsed = schema.safeParse(row.payload);
    if (!parsed.success) {
      logger.warn(
        { consumer: consumer.name, seq: row.seq, type: row.type, issues: parsed.error.issues },
        'domain event payload does not parse: skipped',
      );
      return 'skipped';
    }
    try {
      await handler(this.app, { ...row, type: row.type as DomainEventType, payload: parsed.data });
      this.retryAt.delete(consumer.name);
      return 'handled';
    } catch (err) {
      const attempts = failures + 1;
      if (attempts >= MAX_HANDLER_FAILURES) {
        logger.error(
          { err, consumer: consumer.name, seq: row.seq, type: row.type, attempts },
          'domain event handler keeps failing: event skipped',
        );
        return 'skipped';
      }
      logger.warn({ err, consumer: consumer.name, seq: row.seq, attempts }, 'domain event retried');
      const known = this.cursors.get(consumer.name);
      if (known) known.failures = attempts;
      await this.app.ds.query(
        `UPDATE domain_event_cursors SET failures = $2, "lastError" = $3, "updatedAt" = now()
          WHERE consumer = $1`,
        [consumer.name, attempts, String(err instanceof Error ? err.message : err)],
      );
      const delay = Math.min(30_000, 250 * 2 ** attempts);
      this.retryAt.set(consumer.name, Date.now() + delay);
      const retry = setTimeout(() => {
        this.timers.delete(retry);
        this.wake();
      }, delay);
      this.timers.add(retry);
      return 'retry';
    }
  }
}

const pumps = new WeakMap<AppContext, DomainEventPump>();

async function announce(app: AppContext): Promise<void> {
  await app.redis
    .publish(channelOf(app), '1')
    .catch((err: unknown) =>
      logger.warn({ err }, 'domain event wake-up not published (the poll will pick them up)'),
    );
}

const numbering = new WeakMap<AppContext, { again: boolean }>();

/**
 * Called after a transaction that wrote events commits: this process's consumers run at once;
 * a process without them numbers the events and tells the others.
 */
export function domainEventsWritten(app: AppContext): void {
  const pump = pumps.get(app);
  if (pump) return pump.wake();
  const state = numbering.get(app);
  if (state) {
    state.again = true;
    return;
  }
  const run = { again: false };
  numbering.set(app, run);
  void (async () => {
    do {
      run.again = false;
      if (await numberDomainEvents(app)) await announce(app);
    } while (run.again);
  })()
    .catch((err: unknown) => logger.warn({ err }, 'domain event numbering failed'))
    .finally(() => numbering.delete(app));
}

/** The pump of this process, when it runs the worker role (tests wait on it). */
export const domainEventPumpOf = (app: AppContext) => pumps.get(app);

/** Waits until this process's consumers have handled every event written so far (tests). */
export async function domainEventsSettled(app: AppContext, timeoutMs?: number): Promise<void> {
  const pump = pumps.get(app);
  if (!pump) throw new Error('this process runs no domain-event consumers (ROLE=api)');
  await pump.settled(timeoutMs);
}

/** Starts the consumers of every module (`app.hooks.consumers`) in this process. */
export const startDomainEvents: WorkerStarter = async (app) => {
  const pump = new DomainEventPump(app, app.hooks.consumers);
  pumps.set(app, pump);
  await pump.start();
  return {
    close: async () => {
      pumps.delete(app);
      await pump.close();
    },
  };
};
