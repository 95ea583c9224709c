import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../server/test/harness.js';
import { findQuickMessages } from '../../src/main/cache/entities.js';
import { openCache } from '../../src/main/cache/open.js';
import type { NotificationPlan } from '../../src/main/core/notification-policy.js';
import { ApiSession, memoryVault, type SessionUser } from '../../src/main/net/session.js';
import { startSyncService, type SyncService } from '../../src/main/service.js';
import { company, inbound, newPhone, until, type Company } from './client.js';

let server: TestServer;
let c: Company;
const services: SyncService[] = [];

beforeAll(async () => {
  server = await startTestServer();
  c = await company(server);
});
afterAll(async () => {
  for (const s of services) s.stop();
  await server?.close();
});

describe('the session main holds', () => {
  it('keeps the refresh cookie in its vault; a restart refreshes from it; sign-out forgets it', async () => {
    const vault = memoryVault();
    const users: (SessionUser | null)[] = [];
    const first = new ApiSession(server.url, vault);
    first.onUser((u) => users.push(u));
    const login = await first.send({
      method: 'POST',
      path: '/auth/login',
      body: { email: c.email, password: c.password },
    });
    expect(login.status).toBe(200);
    expect(vault.load()).toEqual(expect.any(String));
    expect(first.token).toEqual(expect.any(String));
    expect(users).toEqual([expect.objectContaining({ companyId: c.companyId })]);

    // The app restarts: no access token, only the sealed refresh token.
    const second = new ApiSession(server.url, vault);
    const me = await second.call<{ id: number }>({ method: 'GET', path: '/auth/me' });
    expect(me.status).toBe(200);
    expect(second.user).toMatchObject({ companyId: c.companyId });

    await second.send({ method: 'DELETE', path: '/auth/logout' });
    expect(vault.load()).toBeNull();
    expect(second.token).toBeNull();
    expect(second.signedIn).toBe(false);
  });
});

describe('the sync service', () => {
  it('writes events to the cache before the renderer hears of them, notifies and counts unread', async () => {
    const session = new ApiSession(server.url, memoryVault());
    await session.send({
      method: 'POST',
      path: '/auth/login',
      body: { email: c.email, password: c.password },
    });
    const db = openCache();
    const pushed: { channel: string; message: boolean; cached: boolean }[] = [];
    const notes: NotificationPlan[] = [];
    let unread = -1;
    const service = startSyncService({
      session,
      db,
      user: session.user!,
      push: (channel, payload) => {
        const message = (payload as { payload?: { message?: { id: number } } })?.payload?.message;
        const cached =
          !!message && !!db.prepare(`SELECT 1 FROM messages WHERE id = ?`).get(message.id);
        pushed.push({ channel, message: !!message, cached });
      },
      showNotification: (plan) => notes.push(plan),
      setUnread: (n) => void (unread = n),
      prefs: () => ({ autoLaunch: false, muted: false, groups: true }),
      view: () => ({ ticketId: null, focused: false }),
    });
    services.push(service);
    await until(() => pushed.some((p) => p.channel === 'realtime:status'));
    await inbound(server, c, newPhone(), 'Bom dia, preciso de ajuda');
    await until(() => notes.length > 0);
    const messageEvents = pushed.filter((p) => p.channel === 'realtime:event' && p.message);
    expect(messageEvents.length).toBeGreaterThan(0);
    expect(messageEvents.every((p) => p.cached)).toBe(true);
    expect(notes[0]).toMatchObject({ body: 'Bom dia, preciso de ajuda' });
    // A pending ticket without a queue concerns the admin: one unread message.
    await until(() => unread === 1);
  });

  it('after an offline start (no access token yet) it signs the socket in and catches up', async () => {
    const vault = memoryVault();
    const first = new ApiSession(server.url, vault);
    await first.send({
      method: 'POST',
      path: '/auth/login',
      body: { email: c.email, password: c.password },
    });
    const lastUser = first.user!;
    const phone = newPhone();
    await inbound(server, c, phone, 'enquanto o app estava fechado');
    // The app starts from its files only: the sealed refresh token and the last user.
    const session = new ApiSession(server.url, vault);
    expect(session.token).toBeNull();
    const db = openCache();
    const statuses: unknown[] = [];
    const service = startSyncService({
      session,
      db,
      user: lastUser,
      push: (channel, payload) => {
        if (channel === 'realtime:status' || channel === 'realtime:error') statuses.push(payload);
      },
      showNotification: () => undefined,
      setUnread: () => undefined,
      prefs: () => ({ autoLaunch: false, muted: false, groups: true }),
      view: () => ({ ticketId: null, focused: false }),
    });
    services.push(service);
    await until(() => statuses.includes('connected'), 15_000);
    // The handshake was refused first (no token), then the session refreshed and got in.
    expect(statuses[0]).toEqual({ message: expect.any(String) });
    expect(session.token).toEqual(expect.any(String));
    await until(() =>
      db.prepare(`SELECT 1 FROM messages WHERE body = 'enquanto o app estava fechado'`).get(),
    );
  });

  it('keeps the quick messages of the composer in the cache', async () => {
    const session = new ApiSession(server.url, memoryVault());
    await session.send({
      method: 'POST',
      path: '/auth/login',
      body: { email: c.email, password: c.password },
    });
    const db = openCache();
    const service = startSyncService({
      session,
      db,
      user: session.user!,
      push: () => undefined,
      showNotification: () => undefined,
      setUnread: () => undefined,
      prefs: () => ({ autoLaunch: false, muted: false, groups: true }),
      view: () => ({ ticketId: null, focused: false }),
    });
    services.push(service);
    await until(() => service.link.connected);
    const created = await session.call({
      method: 'POST',
      path: '/quick-messages',
      body: { shortcode: 'boasvindas', message: 'Olá! Como posso ajudar?', geral: true },
    });
    expect(created.status).toBeLessThan(300);
    await until(() => findQuickMessages(db, 'boas').length === 1);
    expect(findQuickMessages(db, 'boas')[0]).toMatchObject({ message: 'Olá! Como posso ajudar?' });
  });
});
