// One running connection inside the process that holds its lease: the provider; its events
// written ahead to the connection's inbox (inbox.ts) and handled from there one at a time, in
// order; its status events (a lane of their own) written (fenced) to the whatsapps row; and its
// outbound worker, paused while the connection is not open.
import { performance } from 'node:perf_hooks';
import type { AppContext } from '../context.js';
import { logger } from '../logger.js';
import { startConnectionWorker, type ConnectionWorker } from './connection-worker.js';
import type { ConnectionRef, InboxEntry, SessionEventHandler } from './hooks.js';
import {
  APPEND_BATCH,
  deadLetter,
  INBOX_EVENTS,
  isTransient,
  readInbox,
  recordAppendLatency,
  stripNul,
  type InboxRow,
} from './inbox.js';
import {
  PORT_EVENT_NAMES,
  type ConnectionEvent,
  type PortEvent,
  type StartOptions,
  type WhatsAppProvider,
} from './port.js';
import { createProvider } from './providers.js';
import { inboxWriterOf, type InboxWriter } from './inbox-writer.js';
import type { SessionLease } from './session-lease.js';

/**
 * A handler failing deterministically (the database answers, the error is not a conflict) is
 * tried this many times, POISON_RETRY_MS apart, then its event goes to the dead letters: a
 * poisoned event holds the conversation behind it for about 50 ms, not seconds.
 */
export const POISON_ATTEMPTS = 2;
const POISON_RETRY_MS = 50;
/** Rows another process appended (a fenced-off former holder) are found by this poll. */
const INBOX_POLL_MS = 5_000;
/** How long a final DISCONNECTED waits for the events received before it to be stored. */
const FINAL_DRAIN_MS = 10_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const backoff = (attempt: number) => Math.min(5_000, 100 * 2 ** Math.min(attempt, 6));

/** Rows handed to the batch handler at once at most. */
const BATCH_ROWS = 100;

/** The consecutive `message` rows from `from` on (at most BATCH_ROWS). */
function messageRun(rows: InboxRow[], from: number): InboxRow[] {
  let end = from;
  while (end < rows.length && end - from < BATCH_ROWS && rows[end]!.event.name === 'message') end++;
  return rows.slice(from, end);
}

interface Queued {
  event: PortEvent;
  /** A DISCONNECTED that is part of a restart or a new QR: not written, does not end the session. */
  transitional: boolean;
}

export interface SessionRow extends ConnectionRef {
  provider: string;
}

export class RunningSession {
  readonly provider: WhatsAppProvider;
  private readonly worker: ConnectionWorker;
  /** Status events, handled in their own lane (they carry no customer data). */
  private readonly statusQueue: Queued[] = [];
  private statusDraining: Promise<void> | undefined;
  /** Events received and not yet durable, with when they arrived (performance.now()). */
  private readonly toAppend: { event: PortEvent; at: number }[] = [];
  private appending: Promise<void> | undefined;
  /** Resolved once nothing received is waiting to be made durable (see whenDurable). */
  private durableWaiters: (() => void)[] = [];
  private readonly writer: InboxWriter;
  private readonly inboxLoop: Promise<void>;
  private wakeSignal = false;
  private wakeWaiter: (() => void) | undefined;
  /** The last read found the inbox empty. */
  private inboxIdle = false;
  private ops: Promise<void> = Promise.resolve();
  private transitioning = false;
  /** Set once the session is ending: events are no longer handled (but still made durable). */
  private quiet = false;
  private renewTimer: NodeJS.Timeout;

  constructor(
    private readonly app: AppContext,
    readonly ref: SessionRow,
    readonly lease: SessionLease,
    leaseMs: number,
    private readonly onEnd: (session: RunningSession, reason: 'disconnected' | 'lost') => void,
  ) {
    this.writer = inboxWriterOf(app);
    this.provider = createProvider(app, ref, {
      checkOwnership: () => lease.held(),
      whenDurable: () => this.whenDurable(),
    });
    for (const name of PORT_EVENT_NAMES) {
      this.provider.events.on(name, (payload) => this.receive({ name, payload } as PortEvent));
    }
    this.worker = startConnectionWorker(app, ref, () => this.provider);
    this.renewTimer = setInterval(() => void this.renew(), Math.max(200, leaseMs / 3));
    // What the previous holder left in the inbox comes first: new events get higher ids.
    this.inboxLoop = this.runInbox();
  }

  get whatsappId() {
    return this.ref.whatsappId;
  }

  /** Runs lifecycle operations one after another: one connect at a time. */
  op(run: () => Promise<void>): Promise<void> {
    this.ops = this.ops.then(run).catch((err: unknown) => {
      logger.error({ err, whatsappId: this.whatsappId }, 'session operation failed');
    });
    return this.ops;
  }

  start(options: StartOptions = {}) {
    return this.op(() => this.provider.start(options));
  }

  /** Stop and start again; with `fresh`, the credentials are wiped first (a new QR code). */
  restart(fresh: boolean, options: StartOptions = {}) {
    return this.op(async () => {
      this.transitioning = true;
      try {
        if (fresh) await this.provider.logout();
        else await this.provider.stop();
      } finally {
        this.transitioning = false;
      }
      await this.provider.start(options);
    });
  }

  /** Unlink the device; the DISCONNECTED that follows ends the session. */
  logout() {
    return this.op(() => this.provider.logout());
  }

  /** Called synchronously by the provider for every event it raises. */
  private receive(event: PortEvent) {
    if (INBOX_EVENTS.has(event.name)) {
      // Even while ending: the receipt went to WhatsApp, the next holder must find the event.
      this.toAppend.push({ event, at: performance.now() });
      this.flushAppends();
      return;
    }
    if (this.quiet) return;
    this.statusQueue.push({ event, transitional: this.transitioning });
    this.drainStatus();
  }

  // ---- the write-ahead append: everything received while the previous INSERT ran goes in one ----

  /**
   * Resolves once every event received so far is durable in the inbox (none waiting, no INSERT
   * running). The simulated device reads the next deliveries only then, as a client that reads
   * its websocket no faster than it stores: what WhatsApp counts as delivered and we have only in
   * memory is at most one read.
   */
  whenDurable(): Promise<void> {
    if (!this.appending && !this.toAppend.length) return Promise.resolve();
    return new Promise((resolve) => this.durableWaiters.push(resolve));
  }

  private flushAppends() {
    if (this.appending) return;
    // Starts after the current burst: events raised in one go (a provider's loop) share an INSERT.
    this.appending = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.appendAll())
      .finally(() => {
        this.appending = undefined;
        if (this.toAppend.length) return this.flushAppends();
        const waiters = this.durableWaiters;
        this.durableWaiters = [];
        for (const resolve of waiters) resolve();
      });
  }

  private async appendAll() {
    for (let failures = 0; this.toAppend.length;) {
      const batch = this.toAppend.slice(0, APPEND_BATCH);
      try {
        // On the process's own inbox connection: never queued behind handlers in the pool.
        await this.writer.append(
          this.ref,
          batch.map((b) => b.event),
        );
      } catch (err) {
        // Nothing else can keep these events: retry until the database takes them.
        failures++;
        logger.error({ err, whatsappId: this.whatsappId, events: batch.length }, 'inbox append');
        await sleep(backoff(failures));
        continue;
      }
      failures = 0;
      this.toAppend.splice(0, batch.length);
      const now = performance.now();
      for (const b of batch) recordAppendLatency(now - b.at);
      this.wake();
    }
  }

  // ---- the inbox, handled in id order ----

  private wake() {
    this.wakeSignal = true;
    this.inboxIdle = false;
    this.wakeWaiter?.();
  }

  private async nextWake(timeoutMs: number) {
    if (this.wakeSignal) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.wakeWaiter = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.wakeWaiter = undefined;
  }

  private async runInbox() {
    while (!this.quiet) {
      this.wakeSignal = false;
      let rows: InboxRow[];
      try {
        rows = await readInbox(this.app.ds, this.whatsappId);
      } catch (err) {
        logger.error({ err, whatsappId: this.whatsappId }, 'inbox read failed');
        await this.nextWake(1_000);
        continue;
      }
      if (!rows.length) {
        this.inboxIdle = !this.wakeSignal;
        await this.nextWake(INBOX_POLL_MS);
        continue;
      }
      // Runs of messages go to the batch handler; what it leaves, one row at a time.
      let singleUntil = 0;
      for (let i = 0; i < rows.length;) {
        if (this.quiet) return;
        if (i >= singleUntil) {
          const run = messageRun(rows, i);
          if (run.length >= 2) {
            const outcome = await this.handleBatch(run);
            if (outcome.stored > 0) {
              i += outcome.stored;
              continue;
            }
            singleUntil = i + outcome.single;
          }
        }
        await this.handleRow(rows[i]!);
        i++;
      }
    }
  }

  /**
   * Hands a run of message rows to the batch handler: how many it stored (and handed to the other
   * handlers), or how many rows to handle one at a time before asking it again (all of the run
   * when it failed: nothing was stored).
   */
  private async handleBatch(run: InboxRow[]): Promise<{ stored: number; single: number }> {
    // Only the first handler may take a run: every handler still sees each event in its order.
    const owner = this.app.hooks.sessionEvent[0];
    if (!owner?.batch) return { stored: 0, single: run.length };
    const items = run.map((row) => ({
      event: stripNul(row.event).value,
      entry: { id: row.id, settled: false } as InboxEntry,
    }));
    let stored: number;
    try {
      stored = await owner.batch(this.app, this.ref, items);
    } catch (err) {
      logger.warn({ err, whatsappId: this.whatsappId, rows: run.length }, 'batch: one at a time');
      return { stored: 0, single: run.length };
    }
    if (stored <= 0) return { stored: 0, single: Math.max(1, -stored) };
    for (let k = 0; k < stored; k++) await this.handleRow(run[k]!, owner, items[k]!.entry);
    return { stored, single: 0 };
  }

  /**
   * Hands one inbox row to every handler (but `skip`, which already stored it under `known`);
   * transient failures wait, poison is quarantined.
   */
  private async handleRow(row: InboxRow, skip?: SessionEventHandler, known?: InboxEntry) {
    const { value: event, changed } = stripNul(row.event);
    if (changed) {
      logger.warn(
        { whatsappId: this.whatsappId, inboxId: row.id, event: event.name },
        'NUL characters removed from a session event',
      );
    }
    const entry: InboxEntry = known ?? { id: row.id, settled: false };
    let poison = 0;
    let transient = 0;
    for (const handler of this.app.hooks.sessionEvent) {
      if (handler === skip) continue;
      for (;;) {
        try {
          await handler(this.app, this.ref, event, entry);
          break;
        } catch (err) {
          if (this.quiet) return;
          if (await isTransient(this.app.ds, err)) {
            transient++;
            logger.warn({ err, whatsappId: this.whatsappId, inboxId: row.id }, 'event retried');
            await sleep(backoff(transient));
            continue;
          }
          if (++poison < POISON_ATTEMPTS) {
            await sleep(POISON_RETRY_MS);
            continue;
          }
          return this.quarantine(row, err, poison + transient);
        }
      }
    }
    if (entry.settled) return;
    await this.app.ds
      .query(`DELETE FROM session_inbox WHERE id = $1`, [row.id])
      .catch((err: unknown) => {
        // The row is read again and handled again (handlers are idempotent).
        logger.error({ err, whatsappId: this.whatsappId, inboxId: row.id }, 'inbox settle');
      });
  }

  private async quarantine(row: InboxRow, err: unknown, attempts: number) {
    logger.error(
      { err, whatsappId: this.whatsappId, inboxId: row.id, event: row.event.name },
      'session event moved to the dead letters',
    );
    for (let failures = 1; !this.quiet; failures++) {
      try {
        return await deadLetter(this.app.ds, this.ref, row, err, attempts);
      } catch (writeErr) {
        logger.error({ err: writeErr, whatsappId: this.whatsappId }, 'dead letter not written');
        await sleep(backoff(failures));
      }
    }
  }

  // ---- status events ----

  private drainStatus() {
    if (this.statusDraining) return;
    this.statusDraining = (async () => {
      for (let item = this.statusQueue.shift(); item && !this.quiet;) {
        await this.handleStatus(item);
        item = this.statusQueue.shift();
      }
    })().finally(() => {
      this.statusDraining = undefined;
      if (this.statusQueue.length && !this.quiet) this.drainStatus();
    });
  }

  private async handleStatus({ event, transitional }: Queued) {
    if (event.name !== 'connection' || transitional) return;
    const written = await this.persist(event.payload).catch((err: unknown) => {
      logger.error({ err, whatsappId: this.whatsappId }, 'session status not written');
      return true;
    });
    if (!written) return this.end('lost');
    this.worker.setConnected(event.payload.status === 'CONNECTED');
    for (const handler of this.app.hooks.sessionEvent) {
      await handler(this.app, this.ref, event).catch((err: unknown) =>
        logger.error({ err, whatsappId: this.whatsappId }, 'status event handler failed'),
      );
    }
    if (event.payload.status === 'DISCONNECTED') {
      // Unlinked for good: store what arrived before, nobody may run this connection soon.
      await this.whenStored(FINAL_DRAIN_MS);
      this.end('disconnected');
    }
  }

  /** Waits (at most `ms`) until every event received so far is stored or quarantined. */
  private async whenStored(ms: number) {
    const deadline = Date.now() + ms;
    while (!this.quiet && Date.now() < deadline) {
      if (!this.appending && !this.toAppend.length && this.inboxIdle) return;
      await sleep(20);
    }
  }

  /** Writes the session state if the row still carries our epoch; false when it does not. */
  private async persist(event: ConnectionEvent): Promise<boolean> {
    const retries = event.retries ?? (event.status === 'CONNECTED' ? 0 : null);
    const [rows] = (await this.app.ds.query(
      `UPDATE whatsapps SET status = $3, qrcode = $4, retries = COALESCE($5, retries),
              number = COALESCE($6, number), "updatedAt" = now()
        WHERE id = $1 AND "sessionEpoch" = $2
        RETURNING id, "companyId", status, qrcode, retries, number, "updatedAt"`,
      [
        this.whatsappId,
        this.lease.epoch,
        event.status,
        event.status === 'qrcode' ? (event.qr ?? '') : '',
        retries,
        event.me?.phone ?? null,
      ],
    )) as [({ id: number; status: string } & Record<string, unknown>)[], number];
    const row = rows[0];
    if (!row) return false;
    const { companyId: _companyId, number: _number, ...session } = row;
    this.app.realtime.toCompany(this.ref.companyId, 'whatsappSession', {
      action: 'update',
      session: { ...session, ...(event.pairingCode && { pairingCode: event.pairingCode }) },
    });
    return true;
  }

  private async renew() {
    const held = await this.lease.renew().catch(() => false);
    if (!held && !this.quiet) this.end('lost');
  }

  private end(reason: 'disconnected' | 'lost') {
    if (this.quiet) return;
    this.quiet = true;
    this.wake();
    this.onEnd(this, reason);
  }

  /**
   * Stops the provider and releases the lease (unless it was lost to another process). Events
   * the provider handed over are made durable first (up to `drainMs`, 5 s by default) and the
   * row being handled finishes; the rest of the inbox is the next holder's. The outbound worker
   * stays until closeWorker(): its blocking connection can take seconds to close and the next
   * holder should not wait for that.
   */
  async stop(options: { release: boolean; drainMs?: number }): Promise<void> {
    const drainMs = options.drainMs ?? 5_000;
    this.quiet = true;
    this.wake();
    clearInterval(this.renewTimer);
    this.worker.setConnected(false);
    await this.op(() => this.provider.stop());
    const deadline = Date.now() + drainMs;
    while (this.appending && Date.now() < deadline) {
      await Promise.race([this.appending, sleep(Math.max(0, deadline - Date.now()))]);
    }
    await Promise.race([this.inboxLoop, sleep(Math.max(0, deadline - Date.now()))]);
    if (options.release) await this.lease.release();
  }

  closeWorker(): Promise<void> {
    return this.worker.close();
  }
}
