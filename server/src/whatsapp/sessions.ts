// Which process runs which connection. Every worker runs a SessionManager: it takes the leases
// of connections that should run (status not DISCONNECTED) up to its fair share, obeys
// start/restart/new-QR/stop requests the API publishes on Redis, and on shutdown hands its
// sessions over (stops them without writing DISCONNECTED, releases the leases, asks the others).
//
// Fair share: each worker beats in a Redis sorted set (`<prefix>:wa:workers`, score = last scan);
// a worker is live while its beat is younger than the lease. A worker runs at most
// min(MAX_SESSIONS_PER_PROCESS, ceil(connections that should run / live workers)) sessions and
// hands the extras over (newest connection ids first) on its next scan. So a worker that starts
// alone takes everything, and a second one that joins gets half within a scan period; a killed
// worker's beat goes stale with its leases, and the survivors' share grows to take them over.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import type { AppContext } from '../context.js';
import type { WorkerStarter } from '../jobs/bullmq.js';
import { createRedis } from '../lib/redis.js';
import { logger } from '../logger.js';
import { closeConnectionQueues } from './connection-queue.js';
import { closeInboxWriter, inboxWriterOf } from './inbox-writer.js';
import type { StartOptions } from './port.js';
import { RunningSession, type SessionRow } from './session.js';
import { SessionLease } from './session-lease.js';
import { simulatorOf } from './simulator/index.js';

export type SessionAction = 'start' | 'restart' | 'newqr' | 'stop';

interface ControlMessage {
  action: SessionAction;
  whatsappId: number;
  /** Link by pairing code for this phone (start and new QR only). */
  pairingPhone?: string;
}

export const controlChannel = (prefix: string) => `${prefix}:wa:control`;

/** Asks whichever worker holds (or can take) the connection to act; the API's only way in. */
export async function requestSession(
  app: AppContext,
  action: SessionAction,
  whatsappId: number,
  options: StartOptions = {},
): Promise<void> {
  const message: ControlMessage = { action, whatsappId, ...options };
  await app.redis.publish(controlChannel(app.prefix), JSON.stringify(message));
}

export interface SessionManagerOptions {
  leaseMs: number;
  maxSessions: number;
  /** How often to look for connections nobody runs (a dead worker's, a missed request). */
  scanMs: number;
  owner: string;
}

export class SessionManager {
  private readonly sessions = new Map<number, RunningSession>();
  private readonly acquiring = new Set<number>();
  private subscriber: Redis | undefined;
  private scanTimer: NodeJS.Timeout | undefined;
  private closed = false;
  /** Sessions this worker may run now (fair share, recomputed by each scan and when at it). */
  private share: number;

  constructor(
    private readonly app: AppContext,
    readonly options: SessionManagerOptions,
  ) {
    this.share = options.maxSessions;
  }

  private get workersKey() {
    return `${this.app.prefix}:wa:workers`;
  }

  /** Connections this process runs now. */
  running(): number[] {
    return [...this.sessions.keys()];
  }

  session(whatsappId: number): RunningSession | undefined {
    return this.sessions.get(whatsappId);
  }

  async start(): Promise<void> {
    this.subscriber = createRedis(this.app.config.REDIS_URL);
    this.subscriber.on('message', (_channel: string, text: string) => {
      try {
        void this.control(JSON.parse(text) as ControlMessage);
      } catch (err) {
        logger.warn({ err }, 'bad session control message');
      }
    });
    await this.subscriber.subscribe(controlChannel(this.app.prefix));
    // Counted as live before the first scan, so the others' shares see this worker at once.
    await this.liveWorkers();
    await this.scan();
    this.scanTimer = setInterval(() => void this.scan(), this.options.scanMs);
  }

  private hasRoom() {
    return this.sessions.size + this.acquiring.size < this.share;
  }

  /** Beats and counts the live workers (this one included). */
  private async liveWorkers(): Promise<number> {
    const now = Date.now();
    const [, , count] = (await this.app.redis
      .multi()
      .zadd(this.workersKey, now, this.options.owner)
      .zremrangebyscore(this.workersKey, '-inf', now - this.options.leaseMs)
      .zcard(this.workersKey)
      .exec()) as [Error | null, unknown][];
    return Math.max(1, Number(count?.[1] ?? 1));
  }

  /** ceil(connections that should run / live workers), capped by MAX_SESSIONS_PER_PROCESS. */
  static fairShare(connections: number, workers: number, max: number): number {
    return Math.min(max, Math.ceil(connections / Math.max(1, workers)));
  }

  private async shouldRun(): Promise<number[]> {
    const rows = (await this.app.ds.query(
      `SELECT id FROM whatsapps WHERE status <> 'DISCONNECTED' ORDER BY id`,
    )) as { id: number }[];
    return rows.map((r) => r.id);
  }

  private async refreshShare(count?: number): Promise<void> {
    const connections = count ?? (await this.shouldRun()).length;
    this.share = SessionManager.fairShare(
      connections,
      await this.liveWorkers(),
      this.options.maxSessions,
    );
  }

  /** Hands over what runs here beyond the share (newest ids first), for another worker to take. */
  private async shed(): Promise<void> {
    const extra = this.sessions.size - this.share;
    if (extra <= 0) return;
    const ids = [...this.sessions.keys()].sort((a, b) => b - a).slice(0, extra);
    logger.info({ owner: this.options.owner, ids, share: this.share }, 'sessions handed over');
    await Promise.all(ids.map((id) => this.handOver(id)));
  }

  private async handOver(whatsappId: number): Promise<void> {
    const session = this.sessions.get(whatsappId);
    if (!session) return;
    this.sessions.delete(whatsappId);
    try {
      await session.stop({ release: true, drainMs: 5_000 });
      await requestSession(this.app, 'start', whatsappId);
      await session.closeWorker();
    } catch (err) {
      logger.error({ err, whatsappId }, 'handing a session over failed');
    }
  }

  /**
   * Takes over connections that should run and that no live process holds, up to the fair
   * share; hands over the sessions beyond it.
   */
  async scan(): Promise<void> {
    if (this.closed) return;
    try {
      const all = await this.shouldRun();
      await this.refreshShare(all.length);
      await this.shed();
      if (!this.hasRoom()) return;
      const ids = all.filter((id) => !this.sessions.has(id));
      if (!ids.length) return;
      const holders = await this.app.redis.mget(
        ids.map((id) => `${this.app.prefix}:wa:lease:${id}`),
      );
      for (const [i, id] of ids.entries()) {
        if (!this.hasRoom() || this.closed) break;
        if (holders[i] === null) await this.take(id, 'start');
      }
    } catch (err) {
      logger.error({ err }, 'session scan failed');
    }
  }

  async control({ action, whatsappId, pairingPhone }: ControlMessage): Promise<void> {
    if (this.closed) return;
    const options: StartOptions = pairingPhone ? { pairingPhone } : {};
    const session = this.sessions.get(whatsappId);
    if (!session) {
      // At the share: a new connection may have raised it (or a worker gone), so count again.
      if (action !== 'stop' && !this.hasRoom()) await this.refreshShare();
      if (action === 'stop' || this.hasRoom()) await this.take(whatsappId, action, options);
      return;
    }
    if (action === 'start') await session.start(options);
    else if (action === 'restart') await session.restart(false);
    else if (action === 'newqr') await session.restart(true, options);
    else await session.logout();
  }

  /** Tries the lease; on success runs the action on a new local session. */
  private async take(
    whatsappId: number,
    action: SessionAction,
    startOptions: StartOptions = {},
  ): Promise<void> {
    if (this.sessions.has(whatsappId) || this.acquiring.has(whatsappId)) return;
    this.acquiring.add(whatsappId);
    try {
      const { app, options } = this;
      const lease = new SessionLease(
        app.redis,
        app.prefix,
        whatsappId,
        options.leaseMs,
        options.owner,
      );
      if (!(await lease.acquire(app.ds))) return;
      const [row] = (await app.ds.query(
        `SELECT id, "companyId", provider FROM whatsapps WHERE id = $1`,
        [whatsappId],
      )) as { id: number; companyId: number; provider: string }[];
      if (!row || this.closed) return void (await lease.release());
      const ref: SessionRow = { whatsappId, companyId: row.companyId, provider: row.provider };
      let session: RunningSession;
      try {
        session = new RunningSession(
          app,
          ref,
          lease,
          options.leaseMs,
          (s, why) => void this.ended(s, why),
        );
      } catch (err) {
        // A provider that cannot run here (the simulator switched off): show it as disconnected.
        logger.error({ err, whatsappId }, 'cannot run this connection');
        await app.ds.query(`UPDATE whatsapps SET status = 'DISCONNECTED' WHERE id = $1`, [
          whatsappId,
        ]);
        return void (await lease.release());
      }
      this.sessions.set(whatsappId, session);
      logger.info({ whatsappId, epoch: lease.epoch, owner: options.owner }, 'session taken');
      if (action === 'stop') await session.logout();
      else if (action === 'newqr') await session.restart(true, startOptions);
      else await session.start(startOptions);
    } catch (err) {
      logger.error({ err, whatsappId }, 'taking a session failed');
    } finally {
      this.acquiring.delete(whatsappId);
    }
  }

  private async ended(session: RunningSession, why: 'disconnected' | 'lost') {
    if (this.sessions.get(session.whatsappId) === session) this.sessions.delete(session.whatsappId);
    logger.info({ whatsappId: session.whatsappId, why }, 'session ended');
    try {
      await session.stop({ release: why === 'disconnected' });
      await session.closeWorker();
    } catch (err) {
      logger.error({ err }, 'closing a session failed');
    }
  }

  /** Shutdown: hand every session over to the other workers. */
  async close(): Promise<void> {
    if (this.closed) return;
    logger.info(
      { owner: this.options.owner, sessions: this.sessions.size },
      'session manager closing',
    );
    this.closed = true;
    clearInterval(this.scanTimer);
    this.subscriber?.disconnect();
    // Leaving: the others' share grows at once (their next request or scan counts without us).
    const leaving = this.app.redis
      .zrem(this.workersKey, this.options.owner)
      .catch((err: unknown) => logger.warn({ err }, 'worker beat not removed'));
    const sessions = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(
      sessions.map(async (s) => {
        try {
          await s.stop({ release: true, drainMs: 5_000 });
          await requestSession(this.app, 'start', s.whatsappId);
          await s.closeWorker();
        } catch (err) {
          logger.error({ err, whatsappId: s.whatsappId }, 'handing a session over failed');
        }
      }),
    );
    await leaving;
  }
}

const managers = new WeakMap<AppContext, SessionManager>();

/** The manager of this process, when it runs the worker role. */
export const sessionManagerOf = (app: AppContext) => managers.get(app);

/** Runs this process's WhatsApp sessions (worker role; the `whatsapp` manifest lists it). */
export const startSessionManager: WorkerStarter = async (app) => {
  const leaseMs = app.config.SESSION_LEASE_MS;
  const manager = new SessionManager(app, {
    leaseMs,
    maxSessions: app.config.MAX_SESSIONS_PER_PROCESS,
    scanMs: Math.min(5_000, Math.round(leaseMs / 3)),
    owner: `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`,
  });
  managers.set(app, manager);
  // The inbox's own connection is opened before any session receives.
  await inboxWriterOf(app)
    .open()
    .catch((err: unknown) => logger.warn({ err }, 'inbox writer not connected yet'));
  await manager.start();
  return {
    close: async () => {
      await manager.close();
      await closeInboxWriter(app);
      await simulatorOf(app).close();
      await closeConnectionQueues(app);
    },
  };
};
