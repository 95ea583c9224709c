import { randomUUID } from 'node:crypto';
import { createCompanyWithAdmin } from '../../../server/test/fixtures.js';
import type { TestServer } from '../../../server/test/harness.js';
import {
  addConnection,
  customerMessage,
  deliver,
} from '../../../server/test/ticketing/fixtures.js';
import { openCache } from '../../src/main/cache/open.js';
import { SqliteStore } from '../../src/main/cache/sqlite-store.js';
import { Outbox, type MessageTransport } from '../../src/main/core/outbox.js';
import { SyncEngine, type SyncTransport } from '../../src/main/core/sync-engine.js';
import { systemClock, type OutboxEntry } from '../../src/main/core/types.js';
import { RealtimeLink } from '../../src/main/net/realtime.js';
import { ApiSession, memoryVault } from '../../src/main/net/session.js';
import { httpMessageTransport, httpSyncTransport } from '../../src/main/core/transports.js';

type Truthy<T> = Exclude<T, undefined | null | false | 0 | ''>;

export async function until<T>(
  probe: () => T | Promise<T>,
  timeoutMs = 10_000,
): Promise<Truthy<T>> {
  const start = Date.now();
  for (;;) {
    const value = await probe();
    if (value) return value as Truthy<T>;
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
}

export interface Company {
  companyId: number;
  whatsappId: number;
  email: string;
  password: string;
}

export async function company(server: TestServer): Promise<Company> {
  const c = await createCompanyWithAdmin(server);
  return { ...c, whatsappId: await addConnection(server, c.companyId) };
}

let phones = 0;
export const newPhone = () => `5511${String(90000000 + ++phones * 7919).padStart(9, '0')}`;

/** A customer's message arriving through the provider hooks, as a session delivers it. */
export const inbound = (server: TestServer, c: Company, phone: string, body: string) =>
  deliver(
    server,
    { companyId: c.companyId, whatsappId: c.whatsappId, admin: null as never },
    { name: 'message', payload: customerMessage(c.whatsappId, phone, { body }) },
  );

export async function head(server: TestServer, companyId: number): Promise<number> {
  const [row] = await server.app.ds.query(
    `SELECT seq::float8 AS seq FROM change_counters WHERE "companyId" = $1`,
    [companyId],
  );
  return row?.seq ?? 0;
}

/** A desktop main process in miniature: session, SQLite cache, engine, outbox, socket. */
export class DesktopClient {
  readonly session: ApiSession;
  readonly store: SqliteStore;
  readonly engine: SyncEngine;
  readonly outbox: Outbox;
  readonly link: RealtimeLink;
  readonly held: OutboxEntry[] = [];
  readonly errors: unknown[] = [];
  userId = 0;
  pulls = 0;
  /** The next send reaches the server and its answer is lost. */
  loseNextAnswer = false;

  constructor(
    readonly server: TestServer,
    options: { db?: ReturnType<typeof openCache>; pageSize?: number; gapGraceMs?: number } = {},
  ) {
    this.session = new ApiSession(server.url, memoryVault());
    this.store = new SqliteStore(options.db ?? openCache());
    const sync = httpSyncTransport(this.session);
    const transport: SyncTransport = {
      fetchChanges: (after, limit) => {
        this.pulls++;
        return sync.fetchChanges(after, limit);
      },
      fetchSnapshot: (head) => sync.fetchSnapshot(head),
    };
    const http = httpMessageTransport(this.session);
    const messages: MessageTransport = {
      sendMessage: async (input) => {
        const result = await http.sendMessage(input);
        if (this.loseNextAnswer) {
          this.loseNextAnswer = false;
          throw new Error('connection reset');
        }
        return result;
      },
    };
    this.engine = new SyncEngine({
      store: this.store,
      transport,
      clock: systemClock,
      pageSize: options.pageSize ?? 500,
      gapGraceMs: options.gapGraceMs ?? 50,
      onError: (e) => this.errors.push(e),
    });
    this.outbox = new Outbox({
      store: this.store,
      transport: messages,
      clock: systemClock,
      userId: () => this.userId,
      newClientId: randomUUID,
      random: () => 0,
      onHeld: (entry) => this.held.push(entry),
    });
    this.link = new RealtimeLink(server.url, () => this.session.token);
  }

  async signIn(email: string, password: string): Promise<void> {
    const answer = await this.session.send<{ user: { id: number } }>({
      method: 'POST',
      path: '/auth/login',
      body: { email, password },
    });
    if (answer.status !== 200) throw new Error(`login ${answer.status}`);
    this.userId = answer.data.user.id;
    await this.engine.start();
  }

  /** Resolves once the socket is up and its rooms joined. */
  connect(): Promise<void> {
    return new Promise((resolve) => {
      const off = this.link.onStatus((s) => {
        if (s === 'connected') {
          off();
          resolve();
        }
      });
      this.link.connect();
    });
  }

  messageIds(ticketId: number): number[] {
    return (
      this.store.db
        .prepare(`SELECT id FROM messages WHERE ticketId = ? AND id IS NOT NULL ORDER BY id`)
        .all(ticketId) as { id: number }[]
    ).map((r) => r.id);
  }

  close(): void {
    this.link.close();
  }
}
