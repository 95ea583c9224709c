import type { MessageTransport, SendResult } from './outbox.js';
import type { SyncTransport } from './sync-engine.js';
import type { EntityData, Snapshot } from './types.js';

/**
 * The sync and send transports over any HTTP client with the platform's request shape: main's
 * session in the desktop app, the web platform's `request` in the browser (with MemoryStore).
 */

export interface ApiCallRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, string | number | boolean | null | undefined>;
  body?: unknown;
}

/** Resolves with any status; rejects only when the network failed. */
export interface ApiCaller {
  call<T = unknown>(req: ApiCallRequest): Promise<{ status: number; data: T }>;
}

/** Closed tickets fetched by a full resync (newest first); older ones return as they change. */
export const RESYNC_CLOSED_PAGES = 2;
/** Open and pending tickets are fetched whole, up to this many pages. */
export const RESYNC_MAX_PAGES = 100;
/** Threads read at once during a full resync. */
export const RESYNC_PARALLEL = 4;

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
  ) {
    super(`HTTP ${status} ${code}`);
  }
}

const codeOf = (data: unknown): string =>
  typeof (data as { error?: unknown })?.error === 'string'
    ? (data as { error: string }).error
    : 'ERR_UNKNOWN';

async function ok<T>(session: ApiCaller, req: ApiCallRequest): Promise<T> {
  const answer = await session.call<T>(req);
  if (answer.status < 200 || answer.status >= 300) {
    throw new HttpError(answer.status, codeOf(answer.data));
  }
  return answer.data;
}

/** `GET /sync/changes` as it came; the shared reader (`readFeed`) checks the answer. */
const feed = (session: ApiCaller, after: number, limit: number) =>
  ok<unknown>(session, { method: 'GET', path: '/sync/changes', query: { after, limit } });

async function pages<T>(
  fetchPage: (n: number) => Promise<{ items: T[]; hasMore: boolean }>,
  max: number,
): Promise<T[]> {
  const all: T[] = [];
  for (let n = 1; n <= max; n++) {
    const page = await fetchPage(n);
    all.push(...page.items);
    if (!page.hasMore) break;
  }
  return all;
}

/**
 * Everything a full resync needs, read after the feed stood at `head` (the `head` of the
 * `resetRequired` answer), so that replaying the feed after `head` covers the reading.
 */
export async function fetchSnapshot(session: ApiCaller, head: number): Promise<Snapshot> {
  const cursor = head;
  const ticketsOf = (status: string, max: number) =>
    pages(async (pageNumber) => {
      const data = await ok<{ tickets: EntityData[]; hasMore: boolean }>(session, {
        method: 'GET',
        path: '/tickets',
        query: { status, showAll: true, pageNumber },
      });
      return { items: data.tickets, hasMore: data.hasMore };
    }, max);
  const active = [
    ...(await ticketsOf('open', RESYNC_MAX_PAGES)),
    ...(await ticketsOf('pending', RESYNC_MAX_PAGES)),
  ];
  const closed = await ticketsOf('closed', RESYNC_CLOSED_PAGES);
  const contacts = await pages(async (pageNumber) => {
    const data = await ok<{ contacts: EntityData[]; hasMore: boolean }>(session, {
      method: 'GET',
      path: '/contacts',
      query: { pageNumber },
    });
    return { items: data.contacts, hasMore: data.hasMore };
  }, RESYNC_MAX_PAGES);
  const tags = await ok<EntityData[]>(session, { method: 'GET', path: '/tags/list' });
  const messages: EntityData[] = [];
  // A few threads at a time: a busy company has hundreds of open tickets.
  for (let i = 0; i < active.length; i += RESYNC_PARALLEL) {
    const threads = await Promise.all(
      active.slice(i, i + RESYNC_PARALLEL).map((ticket) =>
        // The newest page of each thread (its messages oldest first); the cache orders by time.
        ok<{ messages: EntityData[]; count: number }>(session, {
          method: 'GET',
          path: `/messages/${ticket.id}`,
        }),
      ),
    );
    for (const thread of threads) messages.push(...thread.messages);
  }
  const unique = new Map([...active, ...closed].map((t) => [t.id, t]));
  return {
    cursor,
    tickets: [...unique.values()],
    contacts,
    tags,
    messages,
    ...(await chatsOf(session)),
  };
}

/**
 * The internal chats the user is a member of and the newest page of each (the chats page reads
 * them offline). A plan without internal chat answers 403: no chats.
 */
async function chatsOf(
  session: ApiCaller,
): Promise<{ chats: EntityData[]; chatMessages: EntityData[] }> {
  const first = await session.call<{ records: EntityData[]; hasMore: boolean }>({
    method: 'GET',
    path: '/chats',
    query: { pageNumber: 1 },
  });
  if (first.status === 403) return { chats: [], chatMessages: [] };
  const chats = await pages(async (pageNumber) => {
    const data =
      pageNumber === 1 && first.status === 200
        ? first.data
        : await ok<{ records: EntityData[]; hasMore: boolean }>(session, {
            method: 'GET',
            path: '/chats',
            query: { pageNumber },
          });
    return { items: data.records, hasMore: data.hasMore };
  }, RESYNC_MAX_PAGES);
  const chatMessages: EntityData[] = [];
  for (let i = 0; i < chats.length; i += RESYNC_PARALLEL) {
    const threads = await Promise.all(
      chats.slice(i, i + RESYNC_PARALLEL).map((chat) =>
        ok<{ records: EntityData[] }>(session, {
          method: 'GET',
          path: `/chats/${chat.id}/messages`,
        }),
      ),
    );
    for (const thread of threads) chatMessages.push(...thread.records);
  }
  return { chats, chatMessages };
}

export function httpSyncTransport(session: ApiCaller): SyncTransport {
  return {
    fetchChanges: (after, limit) => feed(session, after, limit),
    fetchSnapshot: (head) => fetchSnapshot(session, head),
  };
}

/** `POST /messages/{ticketId}` with the reply's clientId; 201 new, 200 already stored. */
export function httpMessageTransport(session: ApiCaller): MessageTransport {
  return {
    async sendMessage(input): Promise<SendResult> {
      const answer = await session.call<EntityData>({
        method: 'POST',
        path: `/messages/${input.ticketId}`,
        body: {
          body: input.body,
          clientId: input.clientId,
          ...(input.quotedMsgId ? { quotedMsg: input.quotedMsgId } : {}),
        },
      });
      if (answer.status === 200 || answer.status === 201) return { ok: true, message: answer.data };
      return { ok: false, status: answer.status, code: codeOf(answer.data) };
    },
  };
}
