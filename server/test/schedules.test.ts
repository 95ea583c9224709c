// Schedules (issue 17 item 1) on the real Postgres and Redis. The server runs the api role only:
// no schedule worker runs until a test starts one (`startSchedules`), which is "the worker was
// stopped across sendAt and restarted". The routing clock (`setClock`) is the job's clock.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { setClock } from '../src/modules/routing/clock.js';
import { startSchedules, sweepSchedules } from '../src/modules/schedules/schedules.service.js';
import { createCompanyWithAdmin } from './fixtures.js';
import { ADMIN, startTestServer, type TestServer } from './harness.js';
import { socketOf, tenant, type Tenant } from './ticketing/fixtures.js';

const MIN = 60_000;
let server: TestServer;
let a: Tenant;
let b: Tenant;
let phones = 0;
const T0 = Date.parse('2030-03-10T12:00:00Z');
const at = (ms: number) => new Date(T0 + ms);
const clockAt = (ms: number) => setClock(() => at(ms));

beforeAll(async () => {
  server = await startTestServer({ ROLE: 'api' });
  a = await tenant(server);
  b = await tenant(server);
});
afterAll(() => server?.close());
afterEach(() => setClock(undefined));

/** A contact with an open ticket on the tenant's connection. */
async function contactWithTicket(t: Tenant) {
  const number = `55119666${String(++phones).padStart(5, '0')}`;
  const [contact] = (await server.app.ds.query(
    `INSERT INTO contacts ("companyId", name, number) VALUES ($1, $2, $3) RETURNING id`,
    [t.companyId, `Cliente ${phones}`, number],
  )) as { id: number }[];
  const [ticket] = (await server.app.ds.query(
    `INSERT INTO tickets ("companyId", "contactId", "whatsappId", status, "userId")
     VALUES ($1, $2, $3, 'open', $4) RETURNING id`,
    [t.companyId, contact!.id, t.whatsappId, t.admin.id],
  )) as { id: number }[];
  return { contactId: contact!.id, ticketId: ticket!.id };
}

const createSchedule = (t: Tenant, body: Record<string, unknown>) =>
  server.request<Record<string, unknown> & { id: number }>('POST', '/schedules', {
    token: t.admin.token,
    body,
  });

const scheduleRow = async (id: number) =>
  (
    (await server.app.ds.query(
      'SELECT status, "sentAt", "messageId", body FROM schedules WHERE id = $1',
      [id],
    )) as { status: string; sentAt: Date | null; messageId: number | null; body: string }[]
  )[0];

const messagesOf = async (id: number) =>
  (await server.app.ds.query(
    `SELECT id, body, "ticketId", "fromMe" FROM messages WHERE "clientId" = $1`,
    [`schedule:${id}`],
  )) as { id: number; body: string; ticketId: number; fromMe: boolean }[];

const until = async <T>(probe: () => Promise<T | undefined | false>, ms = 15_000) => {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
};

describe('schedule durability', () => {
  it('a schedule due while no worker ran is sent exactly once when the worker starts', async () => {
    clockAt(0);
    const { contactId, ticketId } = await contactWithTicket(a);
    const made = await createSchedule(a, {
      body: 'Lembrete da consulta',
      sendAt: at(10 * MIN).toISOString(),
      contactId,
      ticketId,
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ status: 'PENDENTE', sentAt: null });
    // The worker is down at sendAt and comes back 30 minutes later (inside the grace window).
    clockAt(40 * MIN);
    expect((await scheduleRow(made.body.id))!.status).toBe('PENDENTE');
    const runner = await startSchedules(server.app);
    try {
      await until(async () => (await scheduleRow(made.body.id))!.status === 'ENVIADA');
      // More sweeps and a concurrent one find nothing left to send.
      await Promise.all([runner.sweep(), sweepSchedules(server.app), sweepSchedules(server.app)]);
    } finally {
      await runner.close();
    }
    const sent = await messagesOf(made.body.id);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ body: 'Lembrete da consulta', ticketId, fromMe: true });
    const row = await scheduleRow(made.body.id);
    expect(row!.messageId).toBe(sent[0]!.id);
    expect(new Date(row!.sentAt!).getTime()).toBe(at(40 * MIN).getTime());
  });

  it('past the grace window the schedule is marked PERDIDA and nothing is sent', async () => {
    clockAt(0);
    const { contactId } = await contactWithTicket(a);
    const made = await createSchedule(a, {
      body: 'Mensagem atrasada',
      sendAt: at(10 * MIN).toISOString(),
      contactId,
    });
    expect(made.status).toBe(201);
    // Default grace: 60 minutes. Back 61 minutes after sendAt.
    clockAt(71 * MIN);
    const runner = await startSchedules(server.app);
    try {
      await until(async () => (await scheduleRow(made.body.id))!.status === 'PERDIDA');
      await runner.sweep();
    } finally {
      await runner.close();
    }
    expect(await messagesOf(made.body.id)).toHaveLength(0);
    const shown = await server.request('GET', `/schedules/${made.body.id}`, {
      token: a.admin.token,
    });
    expect(shown.body).toMatchObject({ status: 'PERDIDA', sentAt: null });
  });

  it('a schedule edited before its time is sent once, with the new text at the new time', async () => {
    clockAt(0);
    const { contactId, ticketId } = await contactWithTicket(a);
    const made = await createSchedule(a, {
      body: 'Texto antigo',
      sendAt: at(10 * MIN).toISOString(),
      contactId,
      ticketId,
    });
    const edited = await server.request('PUT', `/schedules/${made.body.id}`, {
      token: a.admin.token,
      body: { body: 'Texto novo', sendAt: at(40 * MIN).toISOString() },
    });
    expect(edited.status).toBe(200);
    // The old time passes: nothing is sent.
    clockAt(20 * MIN);
    await sweepSchedules(server.app);
    expect(await messagesOf(made.body.id)).toHaveLength(0);
    expect((await scheduleRow(made.body.id))!.status).toBe('PENDENTE');
    // The new time: sent once with the new text.
    clockAt(41 * MIN);
    await sweepSchedules(server.app);
    await sweepSchedules(server.app);
    const sent = await messagesOf(made.body.id);
    expect(sent.map((m) => m.body)).toEqual(['Texto novo']);
    // Once sent it is read-only.
    const late = await server.request('PUT', `/schedules/${made.body.id}`, {
      token: a.admin.token,
      body: { body: 'Outra mudança' },
    });
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ error: 'ERR_SCHEDULE_ALREADY_SENT' });
  });

  it('a schedule deleted before its time is not sent', async () => {
    clockAt(0);
    const { contactId } = await contactWithTicket(a);
    const made = await createSchedule(a, {
      body: 'Vai ser apagada',
      sendAt: at(10 * MIN).toISOString(),
      contactId,
    });
    const gone = await server.request('DELETE', `/schedules/${made.body.id}`, {
      token: a.admin.token,
    });
    expect(gone.status).toBe(200);
    clockAt(20 * MIN);
    await sweepSchedules(server.app);
    expect(await messagesOf(made.body.id)).toHaveLength(0);
    const rows = (await server.app.ds.query(
      `SELECT 1 FROM durable_jobs WHERE kind = 'schedule' AND key = $1`,
      [`schedule:${made.body.id}`],
    )) as unknown[];
    expect(rows).toHaveLength(0);
  });

  it('without a ticket the contact gets one on the default connection; the message is in it', async () => {
    clockAt(0);
    const number = `55119555${String(++phones).padStart(5, '0')}`;
    const [contact] = (await server.app.ds.query(
      `INSERT INTO contacts ("companyId", name, number) VALUES ($1, 'Sem ticket', $2) RETURNING id`,
      [a.companyId, number],
    )) as { id: number }[];
    const made = await createSchedule(a, {
      body: 'Primeiro contato',
      sendAt: at(5 * MIN).toISOString(),
      contactId: contact!.id,
    });
    clockAt(6 * MIN);
    await sweepSchedules(server.app);
    const [sent] = await messagesOf(made.body.id);
    const [ticket] = (await server.app.ds.query(
      'SELECT "contactId", "whatsappId" FROM tickets WHERE id = $1',
      [sent!.ticketId],
    )) as { contactId: number; whatsappId: number }[];
    expect(ticket).toEqual({ contactId: contact!.id, whatsappId: a.whatsappId });
  });

  it('a wall time without an offset is read in the company time zone', async () => {
    clockAt(0);
    const { contactId } = await contactWithTicket(a);
    // T0 is 12:00Z = 09:00 in America/Sao_Paulo (the default zone, UTC-3).
    const made = await createSchedule(a, {
      body: 'Hora local',
      sendAt: '2030-03-10T10:30',
      contactId,
    });
    expect(made.status).toBe(201);
    expect(made.body.sendAt).toBe('2030-03-10T13:30:00.000Z');
  });
});

describe('schedule validation (core §5)', () => {
  it.each([
    ['a body under 5 characters', { body: 'abcd' }, 400, 'Mensagem muito curta'],
    ['a body of spaces', { body: '        ' }, 400, 'Mensagem muito curta'],
    ['no body', { body: undefined }, 400, 'Mensagem muito curta'],
    ['no sendAt', { sendAt: undefined }, 400, 'Obrigatório'],
    ['an empty sendAt', { sendAt: '' }, 400, 'Obrigatório'],
    ['a sendAt that is not a date', { sendAt: 'amanhã' }, 400, 'Data inválida'],
    ['a sendAt in the past', { sendAt: 'past' }, 400, 'ERR_SCHEDULE_IN_PAST'],
    ['no contact', { contactId: undefined }, 400, 'ERR_VALIDATION'],
  ] as const)('%s is refused and nothing is saved', async (_name, change, status, text) => {
    clockAt(0);
    const { contactId } = await contactWithTicket(a);
    const body: Record<string, unknown> = {
      body: 'Mensagem válida',
      sendAt: at(10 * MIN).toISOString(),
      contactId,
      ...change,
    };
    if (body.sendAt === 'past') body.sendAt = at(-1 * MIN).toISOString();
    const before = await server.app.ds.query('SELECT count(*)::int AS n FROM schedules');
    const res = await createSchedule(a, body);
    expect(res.status).toBe(status);
    expect(JSON.stringify(res.body)).toContain(text);
    expect(await server.app.ds.query('SELECT count(*)::int AS n FROM schedules')).toEqual(before);
  });

  it('an image attachment is png, jpg or jpeg', async () => {
    clockAt(0);
    const { contactId } = await contactWithTicket(a);
    const made = await createSchedule(a, {
      body: 'Com imagem',
      sendAt: at(10 * MIN).toISOString(),
      contactId,
    });
    const upload = (name: string, type: string) => {
      const form = new FormData();
      form.append('file', new Blob([Buffer.from('GIF89a')], { type }), name);
      return fetch(`${server.url}/schedules/${made.body.id}/media-upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${a.admin.token}` },
        body: form,
      });
    };
    const gif = await upload('x.gif', 'image/gif');
    expect(gif.status).toBe(400);
    expect((await scheduleRow(made.body.id))!.status).toBe('PENDENTE');
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    );
    const form = new FormData();
    form.append('file', new Blob([png], { type: 'image/png' }), 'foto.png');
    const ok = await fetch(`${server.url}/schedules/${made.body.id}/media-upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.admin.token}` },
      body: form,
    });
    expect(ok.status).toBe(200);
    const answer = (await ok.json()) as { record: { mediaName: string } };
    expect(answer.record.mediaName).toBe('foto.png');
  });
});

describe('schedules: tenant isolation', () => {
  it("another company neither reads, changes, deletes, lists nor hears of a company's schedule", async () => {
    clockAt(0);
    const { contactId } = await contactWithTicket(a);
    let socketA: Socket | undefined;
    let socketB: Socket | undefined;
    try {
      socketA = await socketOf(server, a.admin.token);
      socketB = await socketOf(server, b.admin.token);
      const heardA: unknown[] = [];
      const heardB: string[] = [];
      socketA.on(`company-${a.companyId}-schedule`, (p: unknown) => heardA.push(p));
      socketB.onAny((event: string) => heardB.push(event));
      const made = await createSchedule(a, {
        body: 'Só da empresa A',
        sendAt: at(10 * MIN).toISOString(),
        contactId,
      });
      await until(async () => heardA.length > 0);
      expect(heardA[0]).toMatchObject({ action: 'create', schedule: { id: made.body.id } });
      for (const [method, body] of [
        ['GET', undefined],
        ['PUT', { body: 'Invasão de B' }],
        ['DELETE', undefined],
      ] as const) {
        const res = await server.request(method, `/schedules/${made.body.id}`, {
          token: b.admin.token,
          body,
        });
        expect(res.status).toBe(404);
        expect(res.body).toMatchObject({ error: 'ERR_NO_SCHEDULE_FOUND' });
      }
      const list = await server.request<{ schedules: { id: number }[] }>('GET', '/schedules', {
        token: b.admin.token,
      });
      expect(list.body.schedules.map((s) => s.id)).not.toContain(made.body.id);
      // B may not schedule to A's contact.
      const foreign = await createSchedule(b, {
        body: 'Para o contato de A',
        sendAt: at(10 * MIN).toISOString(),
        contactId,
      });
      expect(foreign.status).toBe(404);
      expect((await scheduleRow(made.body.id))!.body).toBe('Só da empresa A');
      expect(heardB.filter((e) => e.endsWith('-schedule'))).toEqual([]);
    } finally {
      socketA?.disconnect();
      socketB?.disconnect();
    }
  });
});

describe('plan flags', () => {
  it('a plan without useSchedules or useKanban refuses their calls and writes nothing', async () => {
    const root = await server.login(ADMIN.email, ADMIN.password);
    const plan = await server.request<{ id: number }>('POST', '/plans', {
      token: root.token,
      body: {
        name: `Sem agenda ${Date.now()}`,
        users: 5,
        connections: 5,
        queues: 5,
        value: 10,
        useSchedules: false,
        useKanban: false,
      },
    });
    const c = await createCompanyWithAdmin(server, { planId: plan.body.id });
    const [contact] = (await server.app.ds.query(
      `INSERT INTO contacts ("companyId", name, number) VALUES ($1, 'X', '5511944440000') RETURNING id`,
      [c.companyId],
    )) as { id: number }[];
    const calls: [string, string, unknown?][] = [
      ['GET', '/schedules'],
      [
        'POST',
        '/schedules',
        { body: 'Mensagem', sendAt: '2099-01-01T10:00:00Z', contactId: contact!.id },
      ],
      ['GET', '/tags/kanban'],
      ['GET', '/ticket/kanban'],
    ];
    for (const [method, path, body] of calls) {
      const res = await server.request(method, path, { token: c.admin.token, body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body).toMatchObject({ error: 'ERR_PLAN_FEATURE_DISABLED' });
    }
    const [{ n }] = (await server.app.ds.query(
      'SELECT count(*)::int AS n FROM schedules WHERE "companyId" = $1',
      [c.companyId],
    )) as [{ n: number }];
    expect(n).toBe(0);
  });
});
