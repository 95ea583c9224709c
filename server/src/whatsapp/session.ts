// One running connection inside the process that holds its lease: the provider, its events
// handled one at a time and in order, its session state written (fenced) to the whatsapps row,
// and its outbound worker, paused while the connection is not open.
import type { AppContext } from '../context.js';
import { logger } from '../logger.js';
import { startConnectionWorker, type ConnectionWorker } from './connection-queue.js';
import { sessionEventHandlers, type ConnectionRef } from './hooks.js';
import type {
  ConnectionEvent,
  PortEvent,
  PortEventName,
  StartOptions,
  WhatsAppProvider,
} from './port.js';
import { createProvider } from './providers.js';
import type { SessionLease } from './session-lease.js';

const EVENT_NAMES: PortEventName[] = [
  'connection',
  'message',
  'ack',
  'edit',
  'revoke',
  'reaction',
  'contacts',
];

/** A handler that throws is retried this many times (backing off to 5 s) before it is skipped. */
export const HANDLER_ATTEMPTS = 8;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
  private readonly queue: Queued[] = [];
  private draining: Promise<void> | undefined;
  private ops: Promise<void> = Promise.resolve();
  private transitioning = false;
  /** Set once the session is ending: later events are neither written nor handled. */
  private quiet = false;
  private renewTimer: NodeJS.Timeout;

  constructor(
    private readonly app: AppContext,
    readonly ref: SessionRow,
    readonly lease: SessionLease,
    leaseMs: number,
    private readonly onEnd: (session: RunningSession, reason: 'disconnected' | 'lost') => void,
  ) {
    this.provider = createProvider(app, ref, { checkOwnership: () => lease.held() });
    for (const name of EVENT_NAMES) {
      this.provider.events.on(name, (payload) => this.enqueue({ name, payload } as PortEvent));
    }
    this.worker = startConnectionWorker(app, ref, () => this.provider);
    this.renewTimer = setInterval(() => void this.renew(), Math.max(200, leaseMs / 3));
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

  private enqueue(event: PortEvent) {
    if (this.quiet) return;
    this.queue.push({ event, transitional: this.transitioning });
    this.draining ??= this.drain().finally(() => (this.draining = undefined));
  }

  private async drain() {
    for (let item = this.queue.shift(); item && !this.quiet; item = this.queue.shift()) {
      await this.handle(item);
    }
  }

  private async handle({ event, transitional }: Queued) {
    if (event.name === 'connection') {
      if (transitional) return;
      const written = await this.persist(event.payload);
      if (!written) return this.end('lost');
      this.worker.setConnected(event.payload.status === 'CONNECTED');
    }
    for (const handler of sessionEventHandlers) {
      for (let attempt = 1; ; attempt++) {
        try {
          await handler(this.app, this.ref, event);
          break;
        } catch (err) {
          if (attempt >= HANDLER_ATTEMPTS || this.quiet) {
            logger.error({ err, event: event.name, whatsappId: this.whatsappId }, 'event skipped');
            break;
          }
          await sleep(Math.min(5_000, 100 * 2 ** attempt));
        }
      }
    }
    if (event.name === 'connection' && event.payload.status === 'DISCONNECTED') {
      this.end('disconnected');
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
    this.onEnd(this, reason);
  }

  /**
   * Stops the provider and releases the lease (unless it was lost to another process). The
   * outbound worker stays until closeWorker(): its blocking connection can take seconds to close
   * and the next holder should not wait for that.
   */
  async stop(options: { release: boolean; drainMs?: number }): Promise<void> {
    const pending = this.draining;
    if (pending && options.drainMs) {
      await Promise.race([pending, sleep(options.drainMs)]);
    }
    this.quiet = true;
    clearInterval(this.renewTimer);
    this.worker.setConnected(false);
    await this.op(() => this.provider.stop());
    if (options.release) await this.lease.release();
  }

  closeWorker(): Promise<void> {
    return this.worker.close();
  }
}
