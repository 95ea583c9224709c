import { CHAT_TITLE_REQUIRED, CHAT_USERS_REQUIRED, PLAN_FLAGS } from '@atende/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changedTables, fingerprint } from './db-snapshot.js';
import { createCompanyWithAdmin } from './fixtures.js';
import { ADMIN, startTestServer, type Session, type TestServer } from './harness.js';
import { eventually, listen, type Listening } from './socket-client.js';
import { addAgent } from './ticketing/fixtures.js';

type Agent = Session & { id: number };

let server: TestServer;
let a: { companyId: number; admin: Session };
let b: { companyId: number; admin: Session };
let owner: Agent;
let x: Agent;
let y: Agent;
let outsider: Agent;
let chatId: number;
let chatUuid: string;

beforeAll(async () => {
  server = await startTestServer();
  a = await createCompanyWithAdmin(server);
  b = await createCompanyWithAdmin(server);
  owner = { ...a.admin, id: a.admin.user.id };
  x = await addAgent(server, a.admin);
  y = await addAgent(server, a.admin);
  outsider = await addAgent(server, a.admin);
  const made = await server.request('POST', '/chats', {
    token: owner.token,
    body: { title: 'Equipe', users: [{ id: x.id, name: 'x' }, y.id] },
  });
  expect(made.status).toBe(201);
  chatId = made.body.id;
  chatUuid = made.body.uuid;
});
afterAll(() => server?.close());

const call = (who: Session, method: string, path: string, body?: unknown) =>
  server.request(method, path, { token: who.token, body });

async function unreadOf(who: Agent, viewer: Session = who): Promise<number> {
  const res = await call(viewer, 'GET', `/chats/${chatId}`);
  expect(res.status).toBe(200);
  return res.body.users.find((u: { userId: number }) => u.userId === who.id).unreads;
}

describe('internal chat (issue 17 item 2)', () => {
  it('creates a chat with the owner as a member, found by id and by uuid', async () => {
    const byUuid = await call(x, 'GET', `/chats/u/${chatUuid}`);
    expect(byUuid.status).toBe(200);
    expect(byUuid.body.id).toBe(chatId);
    expect(byUuid.body.ownerId).toBe(owner.id);
    expect(byUuid.body.users.map((u: { userId: number }) => u.userId).sort()).toEqual(
      [owner.id, x.id, y.id].sort(),
    );
    const list = await call(y, 'GET', '/chats');
    expect(list.body.records.map((c: { id: number }) => c.id)).toContain(chatId);
    expect((await call(outsider, 'GET', '/chats')).body.records).toEqual([]);
  });

  it.each([
    [{ title: '   ', users: [1] }, CHAT_TITLE_REQUIRED],
    [{ users: [1] }, CHAT_TITLE_REQUIRED],
    [{ title: 'Sem gente', users: [] }, CHAT_USERS_REQUIRED],
    [{ title: 'Sem gente' }, CHAT_USERS_REQUIRED],
  ])('refuses %j with "%s" and writes nothing', async (body, message) => {
    const before = await fingerprint(server.app.ds);
    const res = await call(owner, 'POST', '/chats', body);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain(message);
    expect(changedTables(before, await fingerprint(server.app.ds))).toEqual([]);
  });

  it('refuses an empty message and writes nothing', async () => {
    const before = await fingerprint(server.app.ds);
    const res = await call(x, 'POST', `/chats/${chatId}/messages`, { message: '  \n ' });
    expect(res.status).toBe(400);
    expect(changedTables(before, await fingerprint(server.app.ds))).toEqual([]);
  });

  it('2 × 100 concurrent messages give exact unread counts', async () => {
    await Promise.all([owner, x, y].map((u) => call(u, 'POST', `/chats/${chatId}/read`)));
    const sends = [x, y].flatMap((u) =>
      Array.from({ length: 100 }, (_, i) =>
        call(u, 'POST', `/chats/${chatId}/messages`, { message: `${u.id}:${i}` }),
      ),
    );
    const results = await Promise.all(sends);
    expect(results.every((r) => r.status === 201)).toBe(true);
    expect(await unreadOf(owner)).toBe(200);
    expect(await unreadOf(x)).toBe(100);
    expect(await unreadOf(y)).toBe(100);
    const page = await call(owner, 'GET', `/chats/${chatId}/messages`);
    expect(page.body.count).toBe(200);
    expect(page.body.hasMore).toBe(true);
    expect(page.body.records).toHaveLength(20);
  });

  it('reads concurrent with sends never lose a message', async () => {
    await call(owner, 'POST', `/chats/${chatId}/read`);
    const sent: Promise<{ status: number; body: { id: number } }>[] = [];
    const reads: Promise<unknown>[] = [];
    for (let i = 0; i < 60; i++) {
      sent.push(call(i % 2 ? x : y, 'POST', `/chats/${chatId}/messages`, { message: `r${i}` }));
      if (i % 10 === 0) reads.push(call(owner, 'POST', `/chats/${chatId}/read`));
    }
    await Promise.all([...sent, ...reads]);
    // Whatever the last read saw is read; everything after its cursor is counted, exactly.
    const [row] = (await server.app.ds.query(
      `SELECT "lastReadMessageId" AS c FROM chat_users WHERE "chatId" = $1 AND "userId" = $2`,
      [chatId, owner.id],
    )) as { c: number }[];
    const [{ n }] = (await server.app.ds.query(
      `SELECT count(*)::int AS n FROM chat_messages WHERE "chatId" = $1 AND id > $2`,
      [chatId, row!.c],
    )) as [{ n: number }];
    expect(await unreadOf(owner)).toBe(n);
    await call(owner, 'POST', `/chats/${chatId}/read`);
    expect(await unreadOf(owner)).toBe(0);
  });

  it("the read call clears only the caller's count, whatever userId the body names", async () => {
    await call(x, 'POST', `/chats/${chatId}/messages`, { message: 'para o dono' });
    const ownerBefore = await unreadOf(owner);
    expect(ownerBefore).toBeGreaterThan(0);
    const yRead = await call(y, 'POST', `/chats/${chatId}/read`, { userId: owner.id });
    expect(yRead.status).toBe(200);
    expect(await unreadOf(y)).toBe(0);
    expect(await unreadOf(owner)).toBe(ownerBefore);
  });

  it('a non-member or another company reading changes nothing (404)', async () => {
    const before = await fingerprint(server.app.ds);
    for (const who of [outsider, b.admin]) {
      const res = await call(who, 'POST', `/chats/${chatId}/read`, { userId: owner.id });
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('ERR_NO_CHAT_FOUND');
    }
    expect(changedTables(before, await fingerprint(server.app.ds))).toEqual([]);
  });

  it('a non-member or another company reads, writes and changes nothing (404)', async () => {
    const before = await fingerprint(server.app.ds);
    for (const who of [outsider, b.admin]) {
      for (const [method, path, body] of [
        ['GET', `/chats/${chatId}`],
        ['GET', `/chats/u/${chatUuid}`],
        ['GET', `/chats/${chatId}/messages`],
        ['POST', `/chats/${chatId}/messages`, { message: 'intruso' }],
        ['PUT', `/chats/${chatId}`, { title: 'Tomada' }],
        ['DELETE', `/chats/${chatId}`],
      ] as const) {
        const res = await call(who, method, path, body);
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.body.error).toBe('ERR_NO_CHAT_FOUND');
      }
    }
    expect(changedTables(before, await fingerprint(server.app.ds))).toEqual([]);
  });

  it("a chat cannot name another company's user", async () => {
    const before = await fingerprint(server.app.ds);
    const res = await call(owner, 'POST', '/chats', {
      title: 'Misturada',
      users: [b.admin.user.id],
    });
    expect(res.status).toBe(404);
    expect(changedTables(before, await fingerprint(server.app.ds))).toEqual([]);
  });

  it('only the owner edits and deletes', async () => {
    const before = await fingerprint(server.app.ds);
    expect((await call(x, 'PUT', `/chats/${chatId}`, { title: 'Minha' })).status).toBe(403);
    const del = await call(x, 'DELETE', `/chats/${chatId}`);
    expect(del.status).toBe(403);
    expect(del.body.error).toBe('ERR_CHAT_NOT_OWNER');
    expect(changedTables(before, await fingerprint(server.app.ds))).toEqual([]);
    const renamed = await call(owner, 'PUT', `/chats/${chatId}`, { title: 'Equipe A' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.title).toBe('Equipe A');
  });

  it('events reach the members only, in their own rooms', async () => {
    const sockets: Record<string, Listening> = {
      x: await listen(server.url, x.token),
      owner: await listen(server.url, owner.token),
      outsider: await listen(server.url, outsider.token),
      other: await listen(server.url, b.admin.token),
    };
    try {
      const chatEvents = (l: Listening) => l.received.filter((e) => e.event.endsWith('-chat'));
      const res = await call(y, 'POST', `/chats/${chatId}/messages`, { message: 'só membros' });
      expect(res.status).toBe(201);
      await eventually(
        () => chatEvents(sockets.x!).length > 0 && chatEvents(sockets.owner!).length > 0,
      );
      const got = chatEvents(sockets.x!)[0]!;
      expect(got.event).toBe(`company-${a.companyId}-chat`);
      expect(got.payload).toMatchObject({
        action: 'new-message',
        newMessage: { message: 'só membros', senderId: y.id },
        chat: { id: chatId },
      });
      // A later event to the outsider's own room proves the chat event would have arrived first.
      await call(owner, 'POST', '/chats', { title: 'Sentinela', users: [outsider.id] });
      await eventually(() => chatEvents(sockets.outsider!).length > 0);
      expect(
        chatEvents(sockets.outsider!).map((e) => (e.payload as { action: string }).action),
      ).toEqual(['create']);
      expect(chatEvents(sockets.other!)).toEqual([]);
      expect(Object.values(sockets).flatMap((s) => s.invalid)).toEqual([]);
    } finally {
      for (const s of Object.values(sockets)) s.close();
    }
  });

  it('members removed by the owner are told and lose access', async () => {
    const made = await call(owner, 'POST', '/chats', { title: 'Temporária', users: [x.id, y.id] });
    const socket = await listen(server.url, y.token);
    try {
      const res = await call(owner, 'PUT', `/chats/${made.body.id}`, { users: [x.id] });
      expect(res.status).toBe(200);
      await eventually(() =>
        socket.received.some(
          (e) => (e.payload as { action?: string; chatId?: number }).chatId === made.body.id,
        ),
      );
      expect((await call(y, 'GET', `/chats/${made.body.id}`)).status).toBe(404);
      expect((await call(owner, 'DELETE', `/chats/${made.body.id}`)).status).toBe(200);
      expect((await call(x, 'GET', `/chats/${made.body.id}`)).status).toBe(404);
    } finally {
      socket.close();
    }
  });

  it('the change feed hands chat changes to the members only', async () => {
    // Owned by an agent: the company's admin is not a member and must read nothing of it.
    const made = await call(x, 'POST', '/chats', { title: 'Feed', users: [y.id] });
    expect(made.status).toBe(201);
    const feedChat: number = made.body.id;
    expect(
      (await call(y, 'POST', `/chats/${feedChat}/messages`, { message: 'no feed' })).status,
    ).toBe(201);
    expect((await call(x, 'POST', `/chats/${feedChat}/read`)).status).toBe(200);

    /** Every chat change the user reads from the feed, paging from the start. */
    async function chatChangesOf(who: Session) {
      const rows: { entity: string; entityId: number; action: string; payload: unknown }[] = [];
      for (let after = 0; ;) {
        const res = await call(who, 'GET', `/sync/changes?after=${after}&limit=1000`);
        expect(res.status).toBe(200);
        rows.push(...res.body.changes.filter((c: { entity: string }) => c.entity === 'chat'));
        if (!res.body.hasMore) return rows;
        after = res.body.last;
      }
    }

    for (const member of [x, y]) {
      const mine = (await chatChangesOf(member)).filter((c) => c.entityId === feedChat);
      expect(mine.map((c) => c.action)).toEqual(['create', 'new-message', 'update']);
      expect(mine[1]!.payload).toMatchObject({
        action: 'new-message',
        newMessage: { chatId: feedChat, message: 'no feed', senderId: y.id },
        chat: { id: feedChat, title: 'Feed' },
      });
    }
    // The company's admin and an agent of the company who are not members, and another company.
    for (const stranger of [a.admin, outsider]) {
      const theirs = await chatChangesOf(stranger);
      expect(theirs.filter((c) => c.entityId === feedChat)).toEqual([]);
    }
    // The outsider does read the chats it is a member of (the filter is by member, not by entity).
    expect((await chatChangesOf(outsider)).length).toBeGreaterThan(0);
    expect(await chatChangesOf(b.admin)).toEqual([]);
  });

  it('a plan without useInternalChat refuses every chat call and writes nothing', async () => {
    const root = await server.login(ADMIN.email, ADMIN.password);
    const [{ planId }] = (await server.app.ds.query(
      `SELECT "planId" FROM companies WHERE id = $1`,
      [a.companyId],
    )) as [{ planId: number }];
    const flags = (on: boolean) =>
      Object.fromEntries(PLAN_FLAGS.map((f) => [f, f === 'useInternalChat' ? on : true]));
    expect(
      (await server.request('PUT', `/plans/${planId}`, { token: root.token, body: flags(false) }))
        .status,
    ).toBe(200);
    try {
      const before = await fingerprint(server.app.ds);
      for (const [method, path, body] of [
        ['GET', '/chats'],
        ['POST', '/chats', { title: 'Proibida', users: [x.id] }],
        ['GET', `/chats/${chatId}/messages`],
        ['POST', `/chats/${chatId}/messages`, { message: 'não' }],
        ['POST', `/chats/${chatId}/read`],
      ] as const) {
        const res = await call(owner, method, path, body);
        expect(res.status, `${method} ${path}`).toBe(403);
        expect(res.body.error).toBe('ERR_PLAN_FEATURE_DISABLED');
      }
      expect(changedTables(before, await fingerprint(server.app.ds))).toEqual([]);
    } finally {
      await server.request('PUT', `/plans/${planId}`, { token: root.token, body: flags(true) });
    }
    expect((await call(owner, 'GET', '/chats')).status).toBe(200);
  });
});
