// The connection a worker process writes its sessions' inbox appends on, outside the shared pool:
// an append is the only thing between a message WhatsApp counts as delivered and its durable row,
// so it must not queue behind handlers, consumers and jobs waiting for a pooled connection.
// INBOX_WRITER_CONNECTIONS Postgres connections per process (beyond DB_POOL_SIZE), opened when the session manager
// starts and kept (not closed when idle: opening it in a burst could meet a server out of
// connections), opened again on the next append after it breaks.
import pg from 'pg';
import type { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions.js';
import type { AppContext } from '../context.js';
import { logger } from '../logger.js';
import type { ConnectionRef } from './hooks.js';
import { appendInbox } from './inbox.js';
import type { PortEvent } from './port.js';

/**
 * Connections of the writer. One serialised every session's appends: at 250 msg/s over 20
 * connections the appends queued there, and each simulated device waits for its last read to be
 * durable before it reads again, so the queue showed in every message's latency.
 */
export const INBOX_WRITER_CONNECTIONS = 3;

export class InboxWriter {
  private readonly pool: pg.Pool;

  constructor(connectionString: string) {
    // A small pool of its own: it queues the appends beyond its size and replaces a broken client.
    this.pool = new pg.Pool({
      connectionString,
      max: INBOX_WRITER_CONNECTIONS,
      idleTimeoutMillis: 0,
    });
    // A client that breaks while idle is dropped by the pool; the next append opens another.
    this.pool.on('error', (err) => logger.warn({ err }, 'inbox writer connection lost'));
  }

  /** Appends events in one statement; their ids, in the order given. */
  append(ref: ConnectionRef, events: PortEvent[]): Promise<string[]> {
    return appendInbox(
      {
        query: async (sql: string, params?: unknown[]) => (await this.pool.query(sql, params)).rows,
      },
      ref,
      events,
    );
  }

  /** Opens the connections now (appends retry on their own should this fail). */
  async open(): Promise<void> {
    await Promise.all(
      Array.from({ length: INBOX_WRITER_CONNECTIONS }, () =>
        this.pool.query('SELECT pg_sleep(0.01)'),
      ),
    );
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}

const writers = new WeakMap<AppContext, InboxWriter>();

/** This process's inbox writer (created on first use, closed by the session manager). */
export function inboxWriterOf(app: AppContext): InboxWriter {
  let writer = writers.get(app);
  if (!writer) {
    const { url } = app.ds.options as PostgresConnectionOptions;
    if (!url) throw new Error('the data source has no url for the inbox writer');
    writer = new InboxWriter(url);
    writers.set(app, writer);
  }
  return writer;
}

/** Closes this process's inbox writer, if it was opened (appends after this fail). */
export async function closeInboxWriter(app: AppContext): Promise<void> {
  await writers.get(app)?.close();
}
