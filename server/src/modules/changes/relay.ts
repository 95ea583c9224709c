// The change-feed relay: how numbered changes reach the sockets, exactly once, in order.
//
// Whoever numbers changes (the sequencer of any process, or the sweeper) publishes them on one
// Redis channel, and every api process relays them to its own sockets (`io.local`), keeping per
// company the last number it emitted. A number already emitted is skipped: a batch that arrives
// twice (this process's own, delivered in-process and through Redis) or late (another process
// was slower) is emitted once. A batch that starts beyond the next number means the numbers in
// between went out without reaching here (a worker killed between its numbering commit and its
// publish, or a batch still on its way): they are read from `change_log` and emitted first. A
// poll of the companies' counters catches numbers whose publisher died with no later batch to
// reveal the hole: a counter ahead of the relay for two polls is read from the log.
//
// A company is followed while this process has a socket of it. Following starts at the
// counter's value when its first socket connects: what was numbered before, the client reads
// from the feed (`GET /sync/changes`), as it does after any reconnect.
import { randomBytes } from 'node:crypto';
import { CHANGE_ENTITIES, roomOfCompany } from '@atende/shared';
import type { Redis } from 'ioredis';
import type { Server } from 'socket.io';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { createRedis } from '../../lib/redis.js';
import { logger } from '../../logger.js';
import type { Realtime } from '../../realtime/emitter.js';
import type { Change } from './change-log.js';
import type { TicketChangeHints } from './publish.js';

/** A numbered change as the relay receives it (hints only from the process that wrote it). */
export type RelayedChange = Change & TicketChangeHints & { seq: number };

/** Emits numbered changes to sockets (publish.ts's `emitChanges`, given the local emitter). */
export type ChangeEmitter = (
  realtime: Realtime,
  companyId: number,
  changes: RelayedChange[],
) => void;

/** How often the relay compares its companies' counters with what it emitted. */
export const RELAY_POLL_MS = 1_000;
/** Log rows read per query when filling a hole. */
const FILL_PAGE = 1_000;

export const relayChannel = (prefix: string) => `${prefix}:changes:relay`;

const placement = z.object({
  status: z.string(),
  userId: z.number().nullable().default(null),
  queueId: z.number().nullable().default(null),
});

/** A relay message is `<origin>\n<JSON>`; the JSON part: */
const relayMessage = z.object({
  companyId: z.number().int().positive(),
  changes: z.array(
    z.object({
      seq: z.number().int().positive(),
      entity: z.enum(CHANGE_ENTITIES),
      entityId: z.number(),
      action: z.string(),
      payload: z.unknown(),
      ticketQueueId: z.number().nullable().optional(),
      userIds: z.array(z.number().int()).optional(),
      before: placement.optional(),
      movedToQueue: z.number().nullable().optional(),
    }),
  ),
});

interface Followed {
  /** The last number emitted here; null until the counter was read. */
  emitted: number | null;
  /** Work on this company, one step after another (accepts, fills). */
  chain: Promise<void>;
  /** What `emitted` was at the last poll that found the counter ahead, if it did. */
  behindAt: number | null;
  /** The lowest number accepted before the counter was read (published after the socket came). */
  earliest: number | null;
}

interface LogRow {
  seq: number;
  entity: Change['entity'];
  entityId: number;
  action: string;
  ticketBound: boolean;
  queueId: number | null;
  userIds: number[] | null;
  payload: object | null;
}

export class FeedRelay {
  private readonly companies = new Map<number, Followed>();
  private timer: NodeJS.Timeout | undefined;
  /** Emits to this process's sockets only. */
  private readonly local: Realtime;

  constructor(
    private readonly app: AppContext,
    private readonly io: Server,
    private readonly emit: ChangeEmitter,
    /** This process's id on the channel: its own batches come in-process, not from Redis. */
    readonly origin: string,
  ) {
    this.local = app.realtime.local();
  }

  /** Starts following a company (a socket of it connected here). */
  follow(companyId: number): void {
    if (this.companies.has(companyId)) return;
    const followed: Followed = {
      emitted: null,
      chain: Promise.resolve(),
      behindAt: null,
      earliest: null,
    };
    this.companies.set(companyId, followed);
    this.enqueue(companyId, followed, async () => {
      const head = await this.head(companyId);
      // Batches that came while the counter was read were published after the socket came:
      // they go out even when the read already counts them.
      followed.emitted = followed.earliest === null ? head : Math.min(head, followed.earliest - 1);
    });
  }

  /** Numbered changes of one company, from any publisher, in any order, maybe again. */
  accept(companyId: number, changes: RelayedChange[]): void {
    const followed = this.companies.get(companyId);
    if (!followed || !changes.length) return;
    if (followed.emitted === null) {
      const lowest = Math.min(...changes.map((c) => c.seq));
      followed.earliest = Math.min(followed.earliest ?? lowest, lowest);
    }
    this.enqueue(companyId, followed, () => this.relay(companyId, followed, changes));
  }

  /** Compares the followed companies' counters with what was emitted; fills what stayed behind. */
  async poll(): Promise<void> {
    const rooms = this.io.of('/').adapter.rooms;
    for (const companyId of this.companies.keys()) {
      // Nobody of the company here any more: stop following (a new socket starts again).
      if (!rooms.get(roomOfCompany(companyId))?.size) this.companies.delete(companyId);
    }
    if (!this.companies.size) return;
    const rows = (await this.app.ds.query(
      `SELECT "companyId", seq::float8 AS seq FROM change_counters WHERE "companyId" = ANY($1)`,
      [[...this.companies.keys()]],
    )) as { companyId: number; seq: number }[];
    for (const { companyId, seq } of rows) {
      const followed = this.companies.get(companyId);
      if (!followed || followed.emitted === null) continue;
      if (seq <= followed.emitted) {
        followed.behindAt = null;
      } else if (followed.behindAt === followed.emitted) {
        // Behind by the same numbers for a whole poll: no publish is coming for them.
        followed.behindAt = null;
        this.enqueue(companyId, followed, () => this.fill(companyId, followed, seq));
      } else {
        followed.behindAt = followed.emitted;
      }
    }
  }

  start(): void {
    this.timer = setInterval(
      () => void this.poll().catch((err: unknown) => logger.warn({ err }, 'relay poll failed')),
      RELAY_POLL_MS,
    );
    this.timer.unref();
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await Promise.all([...this.companies.values()].map((f) => f.chain));
    this.companies.clear();
  }

  /** Resolves once everything accepted so far is emitted (tests). */
  async settled(): Promise<void> {
    await Promise.all([...this.companies.values()].map((f) => f.chain));
  }

  private enqueue(companyId: number, followed: Followed, step: () => Promise<void>) {
    followed.chain = followed.chain.then(step).catch((err: unknown) => {
      logger.warn({ err, companyId }, 'change relay step failed');
    });
  }

  private async relay(companyId: number, followed: Followed, changes: RelayedChange[]) {
    // Not followed any more (or followed anew): a later follow starts from the counter.
    if (followed.emitted === null || this.companies.get(companyId) !== followed) return;
    const fresh = changes.filter((c) => c.seq > followed.emitted!).sort((a, b) => a.seq - b.seq);
    if (!fresh.length) return;
    if (fresh[0]!.seq > followed.emitted + 1)
      await this.fill(companyId, followed, fresh[0]!.seq - 1);
    const rest = fresh.filter((c) => c.seq > followed.emitted!);
    if (!rest.length) return;
    this.emit(this.local, companyId, rest);
    followed.emitted = rest.at(-1)!.seq;
  }

  /** Emits the log's changes after `emitted` up to `through`, from the database. */
  private async fill(companyId: number, followed: Followed, through: number) {
    while (
      followed.emitted !== null &&
      followed.emitted < through &&
      this.companies.get(companyId) === followed
    ) {
      const rows = (await this.app.ds.query(
        `SELECT seq::float8 AS seq, entity, "entityId", action, "ticketBound", "queueId",
                "userIds", payload
           FROM change_log WHERE "companyId" = $1 AND seq > $2 AND seq <= $3
          ORDER BY seq LIMIT $4`,
        [companyId, followed.emitted, through, FILL_PAGE],
      )) as LogRow[];
      if (!rows.length) {
        // Pruned (older than the retention): clients read the feed's reset instead.
        followed.emitted = through;
        return;
      }
      logger.info(
        { companyId, from: rows[0]!.seq, to: rows.at(-1)!.seq },
        'change relay: numbers read from the log',
      );
      this.emit(
        this.local,
        companyId,
        rows.map(
          (r) =>
            ({
              entity: r.entity,
              entityId: r.entityId,
              action: r.action,
              payload: r.payload ?? {},
              ...(r.ticketBound && { ticketQueueId: r.queueId }),
              ...(r.userIds && { userIds: r.userIds }),
              seq: r.seq,
            }) as RelayedChange,
        ),
      );
      followed.emitted = rows.at(-1)!.seq;
    }
  }

  private async head(companyId: number): Promise<number> {
    const rows = (await this.app.ds.query(
      `SELECT seq::float8 AS seq FROM change_counters WHERE "companyId" = $1`,
      [companyId],
    )) as { seq: number }[];
    return rows[0]?.seq ?? 0;
  }
}

const relays = new WeakMap<AppContext, FeedRelay>();
/** This process's id on the relay channel. */
const origins = new WeakMap<AppContext, string>();

export const originOf = (app: AppContext): string => {
  let origin = origins.get(app);
  if (!origin) origins.set(app, (origin = `${process.pid}:${randomBytes(4).toString('hex')}`));
  return origin;
};

/**
 * Hands numbered changes to every api process: this one's relay in-process, the others' through
 * Redis. Called by the publisher for every move.
 */
export function sendToRelays(app: AppContext, companyId: number, changes: RelayedChange[]): void {
  if (!changes.length) return;
  const origin = originOf(app);
  relays.get(app)?.accept(companyId, changes);
  // The origin leads the message, so a process skips its own without parsing it.
  app.redis
    .publish(relayChannel(app.prefix), `${origin}\n${JSON.stringify({ companyId, changes })}`)
    .catch((err: unknown) => {
      // The other api processes' polls find these numbers in the log.
      logger.warn({ err, companyId }, 'change relay publish failed');
    });
}

/** Resolves once this process's relay emitted what it accepted (tests). */
export const relaySettled = (app: AppContext) => relays.get(app)?.settled() ?? Promise.resolve();

/** Starts the relay of an api process: follows the companies of its sockets. */
export async function startFeedRelay(
  app: AppContext,
  io: Server,
  emit: ChangeEmitter,
): Promise<{ close: () => Promise<void> }> {
  const relay = new FeedRelay(app, io, emit, originOf(app));
  relays.set(app, relay);
  io.on('connection', (socket) => {
    const companyId = (socket.data as { user?: { companyId?: number } }).user?.companyId;
    if (typeof companyId === 'number') relay.follow(companyId);
  });
  const subscriber: Redis = createRedis(app.config.REDIS_URL);
  const own = `${relay.origin}\n`;
  subscriber.on('message', (_channel: string, text: string) => {
    if (text.startsWith(own)) return;
    let message: z.infer<typeof relayMessage>;
    try {
      message = relayMessage.parse(JSON.parse(text.slice(text.indexOf('\n') + 1)));
    } catch (err) {
      logger.warn({ err }, 'bad change relay message');
      return;
    }
    relay.accept(message.companyId, message.changes as RelayedChange[]);
  });
  await subscriber.subscribe(relayChannel(app.prefix));
  relay.start();
  return {
    close: async () => {
      subscriber.disconnect();
      await relay.close();
      relays.delete(app);
    },
  };
}
