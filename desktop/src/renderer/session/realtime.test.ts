import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RealtimeConnection, RealtimeStatus } from '../platform';
import { FEED_PAGE_SIZE } from '@atende/shared';
import { RealtimeSession, USER_STATUS_PING_MS } from './realtime';

class FakeConnection implements RealtimeConnection {
  connected = false;
  emitted: unknown[][] = [];
  reconnects = 0;
  closed = false;
  private handlers = new Map<string, Set<(payload: unknown) => void>>();
  private statusHandlers = new Set<(s: RealtimeStatus) => void>();
  private errorHandlers = new Set<(e: { message: string }) => void>();

  on(event: string, handler: (payload: unknown) => void) {
    const set = this.handlers.get(event) ?? new Set();
    set.add(handler);
    this.handlers.set(event, set);
    return () => void set.delete(handler);
  }
  emit(event: string, ...args: unknown[]) {
    this.emitted.push([event, ...args]);
  }
  onStatus(handler: (s: RealtimeStatus) => void) {
    this.statusHandlers.add(handler);
    return () => void this.statusHandlers.delete(handler);
  }
  onConnectError(handler: (e: { message: string }) => void) {
    this.errorHandlers.add(handler);
    return () => void this.errorHandlers.delete(handler);
  }
  reconnect() {
    this.reconnects += 1;
  }
  close() {
    this.closed = true;
  }
  // test helpers
  serverSends(event: string, payload: unknown) {
    for (const h of this.handlers.get(event) ?? []) h(payload);
  }
  setConnected(up: boolean) {
    this.connected = up;
    for (const h of this.statusHandlers) h(up ? 'connected' : 'disconnected');
  }
  failHandshake(message = 'ERR_SESSION_EXPIRED') {
    for (const h of this.errorHandlers) h({ message });
  }
}

const setup = (refresh = vi.fn(async () => true)) => {
  const connection = new FakeConnection();
  const deps = {
    connection,
    companyId: 4,
    userId: 9,
    refresh,
    onSignedInElsewhere: vi.fn(),
    onSessionEnded: vi.fn(),
  };
  return { connection, deps, session: new RealtimeSession(deps) };
};

describe('RealtimeSession (core §4 socket)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('says when it is connected, each time, after joining its rooms', () => {
    const { connection, deps } = setup();
    const joinedBefore: number[] = [];
    const onConnected = vi.fn(() => joinedBefore.push(connection.emitted.length));
    new RealtimeSession({ ...deps, onConnected });
    expect(onConnected).not.toHaveBeenCalled();
    connection.setConnected(true);
    connection.setConnected(false);
    connection.setConnected(true);
    expect(onConnected).toHaveBeenCalledTimes(2);
    expect(joinedBefore.every((n) => n > 0)).toBe(true);
  });

  it('re-joins every room after a reconnect, and not the rooms it left', () => {
    const { connection, session } = setup();
    connection.setConnected(true);
    session.join('joinTickets', 'open');
    const leave = session.join('joinChatBox', '12');
    leave();
    expect(connection.emitted).toContainEqual(['joinChatBoxLeave', '12']);
    connection.emitted = [];
    connection.setConnected(false);
    connection.setConnected(true);
    expect(connection.emitted).toEqual([['joinNotification'], ['joinTickets', 'open']]);
  });

  it('pings userStatus every 300000 ms', () => {
    const { connection } = setup();
    expect(USER_STATUS_PING_MS).toBe(300_000);
    vi.advanceTimersByTime(299_999);
    expect(connection.emitted.filter(([e]) => e === 'userStatus')).toHaveLength(0);
    vi.advanceTimersByTime(1);
    vi.advanceTimersByTime(300_000);
    expect(connection.emitted.filter(([e]) => e === 'userStatus')).toHaveLength(2);
  });

  it('reconnects with a refreshed token after a refused handshake', async () => {
    const { connection, deps } = setup();
    connection.failHandshake();
    await vi.runAllTicks();
    await Promise.resolve();
    expect(deps.refresh).toHaveBeenCalledOnce();
    expect(connection.reconnects).toBe(1);
  });

  it('ends the session when no token can be had', async () => {
    const { connection, deps } = setup(vi.fn(async () => false));
    connection.failHandshake();
    await Promise.resolve();
    await Promise.resolve();
    expect(deps.onSessionEnded).toHaveBeenCalledOnce();
    expect(connection.reconnects).toBe(0);
  });

  it('stops at a protocol mismatch: no token refresh, no reconnect, the user is told', async () => {
    const { connection, deps } = setup();
    const onProtocolMismatch = vi.fn();
    const session = new RealtimeSession({ ...deps, onProtocolMismatch });
    connection.failHandshake('ERR_PROTOCOL_VERSION');
    await Promise.resolve();
    await Promise.resolve();
    expect(onProtocolMismatch).toHaveBeenCalledOnce();
    // The first session (without the hook) did not refresh either.
    expect(deps.refresh).not.toHaveBeenCalled();
    expect(connection.reconnects).toBe(0);
    expect(deps.onSessionEnded).not.toHaveBeenCalled();
    session.close();
  });

  it('reacts to the auth event of the same user only', () => {
    const { connection, deps } = setup();
    connection.serverSends('company-4-auth', { action: 'update', user: { id: 8 }, seq: 3 });
    expect(deps.onSignedInElsewhere).not.toHaveBeenCalled();
    connection.serverSends('company-4-auth', { action: 'update', user: { id: 9 }, seq: 5 });
    expect(deps.onSignedInElsewhere).toHaveBeenCalledOnce();
  });

  it('keeps the highest change-feed number seen', () => {
    const { connection, session } = setup();
    session.on('ticket', () => undefined);
    connection.serverSends('company-4-ticket', { action: 'update', seq: 41 });
    connection.serverSends('company-4-ticket', { action: 'update', seq: 40 });
    expect(session.lastSeq).toBe(41);
  });

  it('stops pinging and closes the socket on close', () => {
    const { connection, session } = setup();
    session.close();
    vi.advanceTimersByTime(USER_STATUS_PING_MS * 2);
    expect(connection.emitted.filter(([e]) => e === 'userStatus')).toHaveLength(0);
    expect(connection.closed).toBe(true);
  });

  it('after a reconnect replays the missed changes page by page as their events', async () => {
    const pages: unknown[] = [
      {
        changes: [
          {
            seq: 11,
            entity: 'ticket',
            entityId: 1,
            action: 'update',
            payload: { action: 'update' },
          },
          { seq: 12, entity: 'note', entityId: 2, action: 'create', payload: { action: 'create' } },
        ],
        hasMore: true,
        last: 12,
      },
      {
        changes: [
          {
            seq: 14,
            entity: 'message',
            entityId: 3,
            action: 'create',
            payload: { action: 'create' },
          },
        ],
        hasMore: false,
        last: 15,
      },
    ];
    const fetchChanges = vi.fn(async () => pages.shift()!);
    const connection = new FakeConnection();
    const session = new RealtimeSession({
      connection,
      companyId: 4,
      userId: 9,
      refresh: async () => true,
      onSignedInElsewhere: vi.fn(),
      onSessionEnded: vi.fn(),
      fetchChanges,
    });
    const tickets: unknown[] = [];
    const messages: unknown[] = [];
    session.on('ticket', (p) => tickets.push(p));
    session.on('appMessage', (p) => messages.push(p));
    connection.setConnected(true);
    expect(fetchChanges).not.toHaveBeenCalled();
    connection.serverSends('company-4-ticket', { action: 'update', seq: 10 });
    connection.setConnected(false);
    connection.setConnected(true);
    await session.catchUp();
    expect(fetchChanges.mock.calls).toEqual([
      [10, FEED_PAGE_SIZE],
      [12, FEED_PAGE_SIZE],
    ]);
    expect(tickets).toEqual([
      { action: 'update', seq: 10 },
      { action: 'update', seq: 11 },
    ]);
    expect(messages).toEqual([{ action: 'create', seq: 14 }]);
    expect(session.lastSeq).toBe(15);
  });

  /** A session that has seen feed number 3 and reconnected, reading the feed from `answers`. */
  const reconnectedAt3 = async (answers: unknown[]) => {
    const onResync = vi.fn();
    const tickets: unknown[] = [];
    const connection = new FakeConnection();
    const fetchChanges = vi.fn(async () => answers.shift());
    const session = new RealtimeSession({
      connection,
      companyId: 4,
      userId: 9,
      refresh: async () => true,
      onSignedInElsewhere: vi.fn(),
      onSessionEnded: vi.fn(),
      fetchChanges,
      onResync,
    });
    session.on('ticket', (p) => tickets.push(p));
    connection.setConnected(true);
    connection.serverSends('company-4-ticket', { action: 'update', seq: 3 });
    tickets.length = 0;
    connection.setConnected(false);
    connection.setConnected(true);
    await session.catchUp().catch(() => undefined);
    await Promise.resolve();
    return { session, onResync, tickets, fetchChanges };
  };

  it('asks for a full resync when the feed was pruned, and resumes at the head it states', async () => {
    const { session, onResync, fetchChanges } = await reconnectedAt3([
      { resetRequired: true, head: 80 },
      { changes: [], hasMore: false, last: 80 },
    ]);
    expect(onResync).toHaveBeenCalledOnce();
    expect(session.lastSeq).toBe(80);
    await session.catchUp();
    expect(fetchChanges.mock.calls.at(-1)).toEqual([80, FEED_PAGE_SIZE]);
    expect(onResync).toHaveBeenCalledOnce();
  });

  it('reloads everything when the feed answers something it cannot read', async () => {
    const { session, onResync, tickets } = await reconnectedAt3([
      {
        changes: [{ seq: 2, entity: 'ticket', entityId: 1, action: 'update', payload: {} }],
        hasMore: false,
        last: 4,
      },
    ]);
    expect(onResync).toHaveBeenCalledOnce();
    expect(tickets).toEqual([]);
    expect(session.lastSeq).toBe(3);
  });
});
