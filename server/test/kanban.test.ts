// Kanban (issue 17 item 3): lanes, the atomic move that keeps non-kanban tags, concurrent moves
// (one wins, the other 409), the old clients' DELETE + PUT, visibility and tenant isolation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { startTestServer, type TestServer } from './harness.js';
import { addAgent, addQueue, socketOf, tenant, type Tenant } from './ticketing/fixtures.js';

let server: TestServer;
let a: Tenant;
let b: Tenant;
let phones = 0;

beforeAll(async () => {
  server = await startTestServer({ ROLE: 'api' });
  a = await tenant(server);
  b = await tenant(server);
});
afterAll(() => server?.close());

async function addTag(t: Tenant, name: string, kanban: 0 | 1) {
  const res = await server.request<{ id: number }>('POST', '/tags', {
    token: t.admin.token,
    body: { name, color: kanban ? '#1E88E5' : '#999999', kanban },
  });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body.id;
}

async function addTicket(t: Tenant, queueId: number | null = null) {
  const number = `55119444${String(++phones).padStart(5, '0')}`;
  const [contact] = (await server.app.ds.query(
    `INSERT INTO contacts ("companyId", name, number) VALUES ($1, $2, $3) RETURNING id`,
    [t.companyId, `Cliente K${phones}`, number],
  )) as { id: number }[];
  const [ticket] = (await server.app.ds.query(
    `INSERT INTO tickets ("companyId", "contactId", "whatsappId", status, "queueId", "lastMessage")
     VALUES ($1, $2, $3, 'open', $4, 'última mensagem') RETURNING id`,
    [t.companyId, contact!.id, t.whatsappId, queueId],
  )) as { id: number }[];
  return ticket!.id;
}

const tagsOf = async (ticketId: number) =>
  (
    (await server.app.ds.query(
      'SELECT "tagId" FROM ticket_tags WHERE "ticketId" = $1 ORDER BY "tagId"',
      [ticketId],
    )) as { tagId: number }[]
  ).map((r) => r.tagId);

const setTags = (ticketId: number, tagIds: number[]) =>
  server.app.ds.query(
    `INSERT INTO ticket_tags ("ticketId", "tagId") SELECT $1, unnest($2::int[])`,
    [ticketId, tagIds],
  );

const move = (t: Tenant, ticketId: number, fromTagId: number | null, toTagId: number | null) =>
  server.request('PUT', `/ticket-tags/${ticketId}/kanban`, {
    token: t.admin.token,
    body: { fromTagId, toTagId },
  });

describe('kanban', () => {
  let todo: number;
  let doing: number;
  let done: number;
  let vip: number;

  beforeAll(async () => {
    todo = await addTag(a, `A fazer ${Date.now()}`, 1);
    doing = await addTag(a, `Fazendo ${Date.now()}`, 1);
    done = await addTag(a, `Feito ${Date.now()}`, 1);
    vip = await addTag(a, `VIP ${Date.now()}`, 0);
  });

  it('lists the kanban tags as lanes under `lista`, and every visible open ticket', async () => {
    const lanes = await server.request<{ lista: { id: number }[] }>('GET', '/tags/kanban', {
      token: a.admin.token,
    });
    expect(lanes.status).toBe(200);
    const ids = lanes.body.lista.map((l) => l.id);
    expect(ids).toEqual(expect.arrayContaining([todo, doing, done]));
    expect(ids).not.toContain(vip);
    // No cap: more than the 40 of a tickets page.
    const created = [];
    for (let i = 0; i < 45; i++) created.push(await addTicket(a));
    const board = await server.request<{ tickets: { id: number; contact: { name: string } }[] }>(
      'GET',
      '/ticket/kanban',
      { token: a.admin.token },
    );
    expect(board.status).toBe(200);
    expect(board.body.tickets.map((t) => t.id)).toEqual(expect.arrayContaining(created));
  });

  it('a move changes the lane and keeps the non-kanban tags', async () => {
    const ticketId = await addTicket(a);
    await setTags(ticketId, [todo, vip]);
    const res = await move(a, ticketId, todo, doing);
    expect(res.status).toBe(200);
    expect(await tagsOf(ticketId)).toEqual([doing, vip].sort((x, y) => x - y));
    // To 'Em aberto' and back.
    expect((await move(a, ticketId, doing, null)).status).toBe(200);
    expect(await tagsOf(ticketId)).toEqual([vip]);
    expect((await move(a, ticketId, null, done)).status).toBe(200);
    expect(await tagsOf(ticketId)).toEqual([done, vip].sort((x, y) => x - y));
    // A tag that is not a lane is refused and nothing changes.
    const notLane = await move(a, ticketId, done, vip);
    expect(notLane.status).toBe(400);
    expect(notLane.body).toMatchObject({ error: 'ERR_TAG_NOT_KANBAN' });
    expect(await tagsOf(ticketId)).toEqual([done, vip].sort((x, y) => x - y));
  });

  it('of concurrent moves from the same lane one wins and the others get 409', async () => {
    const ticketId = await addTicket(a);
    await setTags(ticketId, [todo, vip]);
    const answers = await Promise.all([
      move(a, ticketId, todo, doing),
      move(a, ticketId, todo, done),
      move(a, ticketId, todo, null),
    ]);
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409, 409]);
    for (const r of answers.filter((x) => x.status === 409)) {
      expect(r.body).toMatchObject({ error: 'ERR_KANBAN_MOVE_CONFLICT' });
    }
    const winner = answers.findIndex((r) => r.status === 200);
    const lane = [doing, done, null][winner];
    expect(await tagsOf(ticketId)).toEqual([...(lane ? [lane] : []), vip].sort((x, y) => x - y));
  });

  it("the old clients' DELETE + PUT moves the kanban tag and keeps the others", async () => {
    const ticketId = await addTicket(a);
    await setTags(ticketId, [todo, vip]);
    const del = await server.request('DELETE', `/ticket-tags/${ticketId}`, {
      token: a.admin.token,
    });
    expect(del.status).toBe(200);
    expect(await tagsOf(ticketId)).toEqual([vip]);
    const put = await server.request('PUT', `/ticket-tags/${ticketId}/${doing}`, {
      token: a.admin.token,
    });
    expect(put.status).toBe(200);
    expect(await tagsOf(ticketId)).toEqual([doing, vip].sort((x, y) => x - y));
    // A kanban tag put on a ticket in another lane replaces that lane.
    await server.request('PUT', `/ticket-tags/${ticketId}/${done}`, { token: a.admin.token });
    expect(await tagsOf(ticketId)).toEqual([done, vip].sort((x, y) => x - y));
  });

  it('an agent sees and moves only tickets of their queues', async () => {
    const mine = await addQueue(server, a.companyId, `Fila minha ${Date.now()}`);
    const other = await addQueue(server, a.companyId, `Fila outra ${Date.now()}`);
    const agent = await addAgent(server, a.admin, { queueIds: [mine] });
    const seen = await addTicket(a, mine);
    const hidden = await addTicket(a, other);
    const board = await server.request<{ tickets: { id: number }[] }>('GET', '/ticket/kanban', {
      token: agent.token,
    });
    const ids = board.body.tickets.map((t) => t.id);
    expect(ids).toContain(seen);
    expect(ids).not.toContain(hidden);
    const refused = await server.request('PUT', `/ticket-tags/${hidden}/kanban`, {
      token: agent.token,
      body: { fromTagId: null, toTagId: todo },
    });
    expect(refused.status).toBe(403);
    expect(await tagsOf(hidden)).toEqual([]);
    // `queueIds` narrows further (the Whaticket client sends it as JSON).
    const narrowed = await server.request<{ tickets: { id: number }[] }>(
      'GET',
      `/ticket/kanban?queueIds=${encodeURIComponent(JSON.stringify([other]))}`,
      { token: a.admin.token },
    );
    const narrowedIds = narrowed.body.tickets.map((t) => t.id);
    expect(narrowedIds).toContain(hidden);
    expect(narrowedIds).not.toContain(seen);
  });

  it('tenant isolation: another company neither lists, moves nor hears of a ticket', async () => {
    const ticketId = await addTicket(a);
    await setTags(ticketId, [todo]);
    const bTag = await addTag(b, `Lane B ${Date.now()}`, 1);
    let socketA: Socket | undefined;
    let socketB: Socket | undefined;
    try {
      socketA = await socketOf(server, a.admin.token);
      socketB = await socketOf(server, b.admin.token);
      const heardA: { ticket?: { id: number } }[] = [];
      const heardB: string[] = [];
      socketA.on(`company-${a.companyId}-ticket`, (p: { ticket?: { id: number } }) =>
        heardA.push(p),
      );
      socketB.onAny((e: string) => heardB.push(e));
      const lanes = await server.request<{ lista: { id: number }[] }>('GET', '/tags/kanban', {
        token: b.admin.token,
      });
      expect(lanes.body.lista.map((l) => l.id)).toEqual([bTag]);
      const board = await server.request<{ tickets: { id: number }[] }>('GET', '/ticket/kanban', {
        token: b.admin.token,
      });
      expect(board.body.tickets.map((t) => t.id)).not.toContain(ticketId);
      for (const res of [
        await move(b, ticketId, todo, null),
        await move(b, ticketId, null, bTag),
        await server.request('DELETE', `/ticket-tags/${ticketId}`, { token: b.admin.token }),
        await server.request('PUT', `/ticket-tags/${ticketId}/${bTag}`, { token: b.admin.token }),
      ]) {
        expect(res.status).toBe(404);
      }
      expect(await tagsOf(ticketId)).toEqual([todo]);
      // A's own move reaches A's viewers, never B.
      expect((await move(a, ticketId, todo, doing)).status).toBe(200);
      const eventually = async () => {
        const end = Date.now() + 10_000;
        while (!heardA.some((p) => p.ticket?.id === ticketId)) {
          if (Date.now() > end) throw new Error('no ticket event');
          await new Promise((r) => setTimeout(r, 25));
        }
      };
      await eventually();
      expect(heardB.filter((e) => e.endsWith('-ticket'))).toEqual([]);
    } finally {
      socketA?.disconnect();
      socketB?.disconnect();
    }
  });
});
