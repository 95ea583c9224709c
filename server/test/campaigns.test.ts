// Campaigns end to end (issue 16): the real dispatcher, the one outgoing writer, the send
// governor, the simulator and Postgres, on a test clock the governor and the campaign share (a
// day of pacing takes seconds). The kill and downtime cases are in campaigns-crash.test.ts.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  setSendClock,
  setSendPolicy,
  type SendClock,
  type SendPolicy,
} from '../src/modules/governor/index.js';
import { onMessagesStored, sweepCampaigns } from '../src/modules/campaigns/campaigns.dispatch.js';
import { useCampaignClockOf } from '../src/modules/campaigns/campaigns.service.js';
import { isSuppressed } from '../src/modules/campaigns/index.js';
import { domainEventsSettled } from '../src/modules/changes/domain-events.js';
import { changedTables, fingerprint } from './db-snapshot.js';
import { createCompanyWithAdmin } from './fixtures.js';
import { ADMIN, startTestServer, type Session, type TestServer } from './harness.js';
import { SimulatorClient } from './simulator-client.js';
import { eventually, listen } from './socket-client.js';

/** A clock the test owns; a governor sleep moves it forward at once. */
class TestClock implements SendClock {
  constructor(public t: number) {}
  now = () => new Date(this.t);
  sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      this.t += ms;
      setImmediate(resolve);
    });
}

const START = new Date('2026-11-23T13:00:00Z').getTime();
let server: TestServer;
let clock = new TestClock(START);

beforeAll(async () => {
  server = await startTestServer({ SIMULATOR: 'on', DB_POOL_SIZE: '16' });
  useCampaignClockOf(server.app);
}, 60_000);
afterAll(async () => {
  await server?.close();
});
afterEach(() => setSendClock(server.app, undefined));

function useClock(at = START) {
  clock = new TestClock(at);
  setSendClock(server.app, clock);
}

let phones = 0;
/** A company with a connected simulator number and the governor's policy for it. */
async function company(policy: Partial<SendPolicy> = {}) {
  const c = await createCompanyWithAdmin(server);
  const sim = new SimulatorClient(server.url, c.admin.token);
  const res = await server.request('POST', '/whatsapp', {
    token: c.admin.token,
    body: { name: `Campanhas ${++phones}`, provider: 'simulator' },
  });
  const whatsappId = res.body.id as number;
  await sim.connect(whatsappId, `55119100${String(phones).padStart(5, '0')}`);
  await setSendPolicy(
    server.app,
    { whatsappId, companyId: c.companyId },
    {
      window: null,
      dailyCap: 0,
      warmupCaps: [],
      ...policy,
    },
  );
  return { ...c, sim, whatsappId };
}

let lists = 0;
/** A contact list with these numbers (rows as the contact-list import leaves them). */
async function contactList(companyId: number, numbers: string[], name = `Lista ${++lists}`) {
  const [list] = (await server.app.ds.query(
    `INSERT INTO contact_lists ("companyId", name) VALUES ($1, $2) RETURNING id`,
    [companyId, name],
  )) as { id: number }[];
  if (numbers.length) {
    await server.app.ds.query(
      `INSERT INTO contact_list_items ("companyId", "contactListId", name, number, email)
       SELECT $1, $2, 'Cliente ' || n, n, 'c' || n || '@x.test' FROM unnest($3::text[]) AS n`,
      [companyId, list!.id, numbers],
    );
  }
  return list!.id;
}

const numbersFrom = (base: number, count: number) =>
  Array.from({ length: count }, (_, i) => `55119${String(base + i).padStart(8, '0')}`);

async function settings(admin: Session, values: Record<string, unknown>) {
  const res = await server.request('POST', '/campaign-settings', {
    token: admin.token,
    body: { settings: values },
  });
  expect(res.status).toBe(200);
}

async function createCampaign(admin: Session, body: Record<string, unknown>) {
  const res = await server.request('POST', '/campaigns', { token: admin.token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: number; status: string };
}

const q = <T>(sql: string, params: unknown[] = []) =>
  server.app.ds.query(sql, params) as Promise<T[]>;

/**
 * Runs the company's campaigns on the test clock until `done`: while a send is in flight it
 * waits for its result; when nothing is in flight it moves the clock to the next step due and
 * fires it.
 */
async function drive(companyId: number, done: () => Promise<boolean>, timeoutMs = 240_000) {
  const end = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > end) throw new Error('campaigns did not finish in time');
    const [{ pending }] = (await q<{ pending: number }>(
      `SELECT count(*)::int AS pending FROM campaign_shippings
        WHERE "companyId" = $1 AND state = 'queued' AND "dispatchedAt" IS NOT NULL`,
      [companyId],
    )) as [{ pending: number }];
    if (pending > 0) {
      await new Promise((r) => setTimeout(r, 5));
      continue;
    }
    const [{ due }] = (await q<{ due: Date | null }>(
      `SELECT min("dueAt") AS due FROM durable_jobs
        WHERE kind = 'campaign-step' AND "companyId" = $1 AND "firedAt" IS NULL
          AND "failedAt" IS NULL`,
      [companyId],
    )) as [{ due: Date | null }];
    if (due && new Date(due).getTime() > clock.t) clock.t = new Date(due).getTime();
    await sweepCampaigns(server.app);
  }
}

const statusOf = async (id: number) =>
  (await q<{ status: string }>('SELECT status FROM campaigns WHERE id = $1', [id]))[0]?.status;

describe('dispatch', () => {
  it(
    '500 recipients, two campaigns on one connection: the floor, the long pauses, once each, variants rotated',
    { timeout: 300_000 },
    async () => {
      useClock();
      const c = await company({ minGapMs: 20_000, jitterMs: 5_000, longPauseEvery: 0 });
      await settings(c.admin, {
        messageInterval: 20,
        longerIntervalAfter: 20,
        greaterInterval: 60,
      });
      const listA = await contactList(c.companyId, numbersFrom(10_000, 300));
      const listB = await contactList(c.companyId, numbersFrom(20_000, 200));
      const at = new Date(START).toISOString();
      const a = await createCampaign(c.admin, {
        name: 'Black Friday',
        message1: 'Olá {nome}, oferta A1',
        message2: 'Oi {nome}! oferta A2 para {numero}',
        whatsappId: c.whatsappId,
        contactListId: listA,
        scheduledAt: at,
      });
      const b = await createCampaign(c.admin, {
        name: 'Natal',
        message1: 'B1 {email}',
        message2: 'B2',
        message3: 'B3',
        whatsappId: c.whatsappId,
        contactListId: listB,
        tagListId: 'Nenhuma',
        fileListId: '',
        scheduledAt: at,
      });
      expect([a.status, b.status]).toEqual(['PROGRAMADA', 'PROGRAMADA']);

      await drive(c.companyId, async () =>
        (await Promise.all([statusOf(a.id), statusOf(b.id)])).every((s) => s === 'FINALIZADA'),
      );

      const rows = await q<{
        campaignId: number;
        number: string;
        state: string;
        variant: number;
        message: string;
        sentAt: Date;
      }>(
        `SELECT "campaignId", number, state, variant, message, "sentAt" FROM campaign_shippings
          WHERE "companyId" = $1 ORDER BY "sentAt", id`,
        [c.companyId],
      );
      expect(rows).toHaveLength(500);
      expect(rows.every((r) => r.state === 'sent')).toBe(true);

      // Each recipient exactly once on WhatsApp.
      const out = await c.sim.outbound(c.whatsappId);
      expect(out).toHaveLength(500);
      const to = out.map((m) => String(m.to).replace(/\D/g, ''));
      expect(new Set(to).size).toBe(500);
      expect(new Set(to)).toEqual(new Set(rows.map((r) => r.number)));

      // The connection's floor: no two sends closer than the governor's minimum gap.
      const times = rows.map((r) => new Date(r.sentAt).getTime());
      for (let i = 1; i < times.length; i++) {
        expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(20_000);
      }
      // Both ran at once: their sends interleave.
      const firstB = rows.findIndex((r) => r.campaignId === b.id);
      expect(firstB).toBeLessThan(5);

      for (const [campaign, variants, count] of [
        [a, 2, 300],
        [b, 3, 200],
      ] as const) {
        const mine = rows.filter((r) => r.campaignId === campaign.id);
        expect(mine).toHaveLength(count);
        const t = mine.map((r) => new Date(r.sentAt).getTime());
        // The campaign's own pacing: at least messageInterval / 2, and 60 s after every 20.
        for (let i = 1; i < t.length; i++) {
          expect(t[i]! - t[i - 1]!).toBeGreaterThanOrEqual(10_000);
          if (i % 20 === 0) expect(t[i]! - t[i - 1]!).toBeGreaterThanOrEqual(60_000);
        }
        // Variants rotate per campaign: 1, 2, (3,) 1, 2 ... in send order.
        expect(mine.map((r) => r.variant)).toEqual(
          Array.from({ length: count }, (_, i) => (i % variants) + 1),
        );
      }
      const one = rows.find((r) => r.campaignId === a.id && r.variant === 2)!;
      expect(one.message).toBe(`Oi Cliente ${one.number}! oferta A2 para ${one.number}`);
      const report = await server.request('GET', `/campaigns/${a.id}`, { token: c.admin.token });
      expect(report.status).toBe(200);
      expect(report.body.counters).toMatchObject({ total: 300, sent: 300, queued: 0 });
      expect(report.body.completedAt).not.toBeNull();
    },
  );

  it('skips invalid numbers, duplicates and opt-outs when queued', async () => {
    useClock();
    const c = await company({ minGapMs: 1_000, jitterMs: 0 });
    await settings(c.admin, { messageInterval: 0, longerIntervalAfter: 0 });
    const list = await contactList(c.companyId, ['5511987650001', '5511987650002']);
    // The 8-digit form of the same mobile, and a number WhatsApp does not know.
    await q(
      `INSERT INTO contact_list_items ("companyId", "contactListId", name, number, "isWhatsappValid")
       VALUES ($1, $2, 'Dup', '551187650001', NULL), ($1, $2, 'Sem zap', '5511987650003', false)`,
      [c.companyId, list],
    );
    await q(
      `INSERT INTO campaign_suppressions ("companyId", number, reason) VALUES ($1, '5511987650002', 'reply')`,
      [c.companyId],
    );
    const camp = await createCampaign(c.admin, {
      name: 'Filtros',
      message1: 'oi',
      whatsappId: c.whatsappId,
      contactListId: list,
      scheduledAt: new Date(START).toISOString(),
    });
    await drive(c.companyId, async () => (await statusOf(camp.id)) === 'FINALIZADA');
    const rows = await q<{ number: string; state: string; reason: string | null }>(
      `SELECT number, state, reason FROM campaign_shippings WHERE "campaignId" = $1 ORDER BY id`,
      [camp.id],
    );
    expect(rows.map((r) => [r.state, r.reason])).toEqual([
      ['sent', null],
      ['skipped', 'opt-out'],
      ['skipped', 'duplicate'],
      ['skipped', 'invalid-number'],
    ]);
    expect(await c.sim.outbound(c.whatsappId)).toHaveLength(1);
  }, 120_000);
});

describe('replies and the suppression list', () => {
  it('an opt-out reply stops every later bulk send to that contact', async () => {
    useClock();
    const c = await company({ minGapMs: 1_000, jitterMs: 0 });
    await settings(c.admin, { messageInterval: 10, longerIntervalAfter: 0 });
    const x = '5511977770001';
    const first = await createCampaign(c.admin, {
      name: 'Primeira',
      message1: 'Promo 1',
      whatsappId: c.whatsappId,
      contactListId: await contactList(c.companyId, [x]),
      scheduledAt: new Date(START).toISOString(),
    });
    // A campaign already running, with the contact still queued behind another recipient.
    const running = await createCampaign(c.admin, {
      name: 'Em curso',
      message1: 'Promo 2',
      whatsappId: c.whatsappId,
      contactListId: await contactList(c.companyId, ['5511977770002', x]),
      scheduledAt: new Date(START).toISOString(),
    });
    await drive(c.companyId, async () => {
      const [r] = await q<{ n: number }>(
        `SELECT count(*)::int AS n FROM campaign_shippings
          WHERE "companyId" = $1 AND state = 'sent'`,
        [c.companyId],
      );
      // Stop at the first two sends: the running campaign's next recipient (the contact) may be
      // due before the first campaign's closing step, so waiting for that step could send it.
      return r!.n === 2;
    });
    const [queued] = await q<{ state: string }>(
      `SELECT state FROM campaign_shippings WHERE "campaignId" = $1 AND number = $2`,
      [running.id, x],
    );
    expect(queued!.state).toBe('queued');

    await c.sim.inbound({ whatsappId: c.whatsappId, from: x, body: 'Pare.' });
    await c.sim.until(async () => isSuppressed(server.app.ds, c.companyId, x), 20_000);
    const [replied] = await q<{ reply: string; state: string }>(
      `SELECT reply, state FROM campaign_shippings WHERE "campaignId" = $1`,
      [first.id],
    );
    expect(replied).toMatchObject({ reply: 'stop', state: 'replied' });

    // Checked again at send time: the running campaign skips it.
    await drive(c.companyId, async () => (await statusOf(running.id)) === 'FINALIZADA');
    const [skipped] = await q<{ state: string; reason: string }>(
      `SELECT state, reason FROM campaign_shippings WHERE "campaignId" = $1 AND number = $2`,
      [running.id, x],
    );
    expect(skipped).toMatchObject({ state: 'skipped', reason: 'opt-out' });

    // And when queued: a later campaign, the 8-digit spelling of the same mobile included.
    const later = await createCampaign(c.admin, {
      name: 'Depois',
      message1: 'Promo 3',
      whatsappId: c.whatsappId,
      contactListId: await contactList(c.companyId, [x, '5511977770003']),
      scheduledAt: new Date(clock.t).toISOString(),
    });
    await drive(c.companyId, async () => (await statusOf(later.id)) === 'FINALIZADA');
    const out = await c.sim.outbound(c.whatsappId);
    expect(out.filter((m) => String(m.to).includes(x))).toHaveLength(1);
    expect(out).toHaveLength(3);
    expect(await isSuppressed(server.app.ds, c.companyId, '551177770001')).toBe(true);
  }, 120_000);

  it('a confirmation campaign sends its message only after a yes', async () => {
    useClock();
    const c = await company({ minGapMs: 1_000, jitterMs: 0 });
    await settings(c.admin, { messageInterval: 0, longerIntervalAfter: 0 });
    const [yes, maybe] = ['5511966660001', '5511966660002'];
    const camp = await createCampaign(c.admin, {
      name: 'Confirma',
      confirmation: 1,
      confirmationMessage1: 'Podemos enviar a oferta, {nome}? Responda SIM',
      message1: 'Aqui está a oferta',
      whatsappId: c.whatsappId,
      contactListId: await contactList(c.companyId, [yes, maybe]),
      scheduledAt: new Date(START).toISOString(),
    });
    await drive(c.companyId, async () => (await statusOf(camp.id)) === 'FINALIZADA');
    await c.sim.inbound({ whatsappId: c.whatsappId, from: maybe, body: 'talvez' });
    await c.sim.inbound({ whatsappId: c.whatsappId, from: yes, body: 'Sim!' });
    const out = await c.sim.until(async () => {
      const o = await c.sim.outbound(c.whatsappId);
      return o.length === 3 && o;
    }, 20_000);
    expect(out.map((m) => m.body)).toEqual([
      'Podemos enviar a oferta, Cliente 5511966660001? Responda SIM',
      'Podemos enviar a oferta, Cliente 5511966660002? Responda SIM',
      'Aqui está a oferta',
    ]);
    expect(String(out[2]!.to)).toContain(yes);
    await domainEventsSettled(server.app);
    const rows = await q<{ number: string; reply: string; confirmedAt: Date | null }>(
      `SELECT number, reply, "confirmedAt" FROM campaign_shippings WHERE "campaignId" = $1 ORDER BY id`,
      [camp.id],
    );
    expect(rows.map((r) => [r.reply, r.confirmedAt !== null])).toEqual([
      ['yes', true],
      ['other', false],
    ]);

    // The consumer's run handler: a run mixing a reply to a number the campaign sent to with a
    // message from a number it never sent to and an agent's message. Written straight into the
    // tables (no domain events, so the consumer does not see them first) and handed to it.
    const [ref] = await q<{ ticketId: number; contactId: number }>(
      `SELECT "ticketId", "contactId" FROM messages WHERE "companyId" = $1 AND body = 'talvez'`,
      [c.companyId],
    );
    const [stranger] = await q<{ id: number }>(
      `INSERT INTO contacts ("companyId", name, number) VALUES ($1, 'Outro', '5511955550009')
       RETURNING id`,
      [c.companyId],
    );
    const insertMessage = async (contactId: number, body: string, fromMe: boolean) =>
      (
        await q<{ id: number }>(
          `INSERT INTO messages ("companyId", "whatsappId", "ticketId", "contactId", wid, "fromMe",
                  body, ack, read, "mediaType", "createdAt")
           VALUES ($1, $2, $3, $4, $5, $6, $7, 0, true, 'chat', now()) RETURNING id`,
          [c.companyId, c.whatsappId, ref!.ticketId, contactId, `RUN${body}`, fromMe, body],
        )
      )[0]!.id;
    const stored = (messageId: number, fromMe: boolean) => ({
      seq: 0,
      companyId: c.companyId,
      type: 'message.stored' as const,
      createdAt: new Date(),
      payload: {
        messageId,
        ticketId: ref!.ticketId,
        whatsappId: c.whatsappId,
        fromMe,
        origin: fromMe ? ('agent' as const) : ('inbound' as const),
        ticketCreated: false,
      },
    });
    await onMessagesStored(server.app, [
      stored(await insertMessage(stranger!.id, 'PARE', false), false),
      stored(await insertMessage(ref!.contactId, 'Pare', false), false),
      stored(await insertMessage(ref!.contactId, 'Certo', true), true),
    ]);
    expect(await isSuppressed(server.app.ds, c.companyId, maybe)).toBe(true);
    expect(await isSuppressed(server.app.ds, c.companyId, '5511955550009')).toBe(false);
    const [after] = await q<{ reply: string }>(
      `SELECT reply FROM campaign_shippings WHERE "campaignId" = $1 AND number = $2`,
      [camp.id, maybe],
    );
    expect(after!.reply).toBe('stop');
  }, 120_000);
});

describe('status machine and editability', () => {
  it('edits, cancels and restarts by the rules of secondary §4', async () => {
    useClock();
    const c = await company({ minGapMs: 1_000, jitterMs: 0 });
    const list = await contactList(c.companyId, numbersFrom(30_000, 3));
    const base = { message1: 'm', whatsappId: c.whatsappId, contactListId: list };
    const inactive = await createCampaign(c.admin, { name: 'Sem data', ...base });
    expect(inactive.status).toBe('INATIVA');
    const put = (id: number, body: Record<string, unknown>) =>
      server.request('PUT', `/campaigns/${id}`, { token: c.admin.token, body });
    expect((await put(inactive.id, { name: 'Renomeada' })).status).toBe(200);

    const soon = await createCampaign(c.admin, {
      name: 'Em 30 min',
      ...base,
      scheduledAt: new Date(START + 30 * 60_000).toISOString(),
    });
    const far = await createCampaign(c.admin, {
      name: 'Em 2 h',
      ...base,
      scheduledAt: new Date(START + 2 * 3_600_000).toISOString(),
    });
    const refused = await put(soon.id, { message1: 'outra' });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('ERR_CAMPAIGN_NOT_EDITABLE');
    expect((await put(far.id, { message1: 'outra' })).status).toBe(200);
    // Scheduling needs a connection, an audience and a message.
    const incomplete = await server.request('POST', '/campaigns', {
      token: c.admin.token,
      body: { name: 'Vazia', scheduledAt: new Date(START).toISOString() },
    });
    expect(incomplete.status).toBe(400);
    expect(incomplete.body.error).toBe('ERR_CAMPAIGN_INCOMPLETE');

    // Cancel only from PROGRAMADA or EM_ANDAMENTO; restart only from CANCELADA.
    const post = (id: number, action: string) =>
      server.request('POST', `/campaigns/${id}/${action}`, { token: c.admin.token });
    expect((await post(inactive.id, 'cancel')).body.error).toBe('ERR_CAMPAIGN_NOT_CANCELLABLE');
    expect((await post(far.id, 'restart')).body.error).toBe('ERR_CAMPAIGN_NOT_RESTARTABLE');
    const cancelled = await post(soon.id, 'cancel');
    expect(cancelled.body.status).toBe('CANCELADA');
    // CANCELADA: the messages stay editable, the rest is not.
    expect((await put(soon.id, { message2: 'nova variante', name: 'Em 30 min' })).status).toBe(200);
    expect((await put(soon.id, { name: 'Outro nome' })).status).toBe(409);

    const restarted = await post(soon.id, 'restart');
    expect(restarted.body.status).toBe('EM_ANDAMENTO');
    await drive(c.companyId, async () => (await statusOf(soon.id)) === 'FINALIZADA');
    expect((await put(soon.id, { message1: 'x' })).status).toBe(409);
    const variants = await q<{ variant: number }>(
      `SELECT variant FROM campaign_shippings WHERE "campaignId" = $1 ORDER BY id`,
      [soon.id],
    );
    expect(variants.map((v) => v.variant)).toEqual([1, 2, 1]);
    // A running campaign cannot be deleted; a finished one can.
    expect(
      (await server.request('DELETE', `/campaigns/${soon.id}`, { token: c.admin.token })).status,
    ).toBe(200);
  }, 120_000);

  it('pauses while the connection is down and resumes when it is back', async () => {
    useClock();
    const c = await company({ minGapMs: 1_000, jitterMs: 0, breakerPauseMs: 0 });
    await settings(c.admin, { messageInterval: 20, longerIntervalAfter: 0 });
    const spy = await listen(server.url, c.admin.token);
    try {
      const camp = await createCampaign(c.admin, {
        name: 'Queda',
        message1: 'oi',
        whatsappId: c.whatsappId,
        contactListId: await contactList(c.companyId, numbersFrom(40_000, 4)),
        scheduledAt: new Date(START).toISOString(),
      });
      // Running, its first message out, the next one waiting for its interval.
      await drive(c.companyId, async () => (await c.sim.outbound(c.whatsappId)).length === 1);
      await c.sim.drop(c.whatsappId, 408);
      await c.sim.waitForStatus(c.whatsappId, 'TIMEOUT');
      await c.sim.waitForStatus(c.whatsappId, 'CONNECTED', 10_000);
      const updates = () =>
        spy.received
          .filter((e) => e.event.endsWith('-campaign'))
          .map((e) => (e.payload as { record?: { pausedReason: string | null } }).record);
      await eventually(() => updates().some((r) => r?.pausedReason === 'disconnected'), 10_000);
      await eventually(() => updates().at(-1)?.pausedReason === null, 10_000);
      await drive(c.companyId, async () => (await statusOf(camp.id)) === 'FINALIZADA');
      const out = await c.sim.outbound(c.whatsappId);
      expect(out).toHaveLength(4);
      expect(new Set(out.map((m) => m.to)).size).toBe(4);
    } finally {
      spy.close();
    }
  }, 120_000);
});

describe('access', () => {
  it('a plan without useCampaigns is refused on every campaign call, nothing written', async () => {
    const root = await server.login(ADMIN.email, ADMIN.password);
    const plan = await server.request('POST', '/plans', {
      token: root.token,
      body: {
        name: `Sem campanhas ${Date.now()}`,
        users: 5,
        connections: 5,
        queues: 5,
        value: 1,
        useCampaigns: false,
      },
    });
    const { admin, companyId } = await createCompanyWithAdmin(server, { planId: plan.body.id });
    // Scoped to this company: the campaigns of the tests before this one may still be sending.
    const scope = { companyId };
    const before = await fingerprint(server.app.ds, scope);
    const calls: [string, string, unknown?][] = [
      ['GET', '/campaigns'],
      ['POST', '/campaigns', { name: 'Nada' }],
      ['GET', '/campaigns/1'],
      ['PUT', '/campaigns/1', { name: 'Nada' }],
      ['DELETE', '/campaigns/1'],
      ['POST', '/campaigns/1/cancel'],
      ['POST', '/campaigns/1/restart'],
      ['DELETE', '/campaigns/1/media-upload'],
      ['GET', '/campaign-settings'],
      ['POST', '/campaign-settings', { settings: { messageInterval: 5 } }],
    ];
    for (const [method, path, body] of calls) {
      const res = await server.request(method, path, { token: admin.token, body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error).toBe('ERR_PLAN_FEATURE_DISABLED');
    }
    expect(changedTables(before, await fingerprint(server.app.ds, scope))).toEqual([]);
  }, 120_000);

  it("a company never reads, changes or hears about another's campaigns", async () => {
    useClock();
    const a = await company({ minGapMs: 1_000, jitterMs: 0 });
    const b = await createCompanyWithAdmin(server);
    const listA = await contactList(a.companyId, numbersFrom(50_000, 2));
    const spyB = await listen(server.url, b.admin.token);
    const spyA = await listen(server.url, a.admin.token);
    try {
      const camp = await createCampaign(a.admin, {
        name: 'Só da A',
        message1: 'oi',
        whatsappId: a.whatsappId,
        contactListId: listA,
        scheduledAt: new Date(START).toISOString(),
      });
      await drive(a.companyId, async () => (await statusOf(camp.id)) === 'FINALIZADA');
      await eventually(() => spyA.received.some((e) => e.event.endsWith('-campaignShipping')));
      const asB = (method: string, path: string, body?: unknown) =>
        server.request(method, path, { token: b.admin.token, body });
      for (const [method, path, body] of [
        ['GET', `/campaigns/${camp.id}`],
        ['PUT', `/campaigns/${camp.id}`, { name: 'Roubada' }],
        ['DELETE', `/campaigns/${camp.id}`],
        ['POST', `/campaigns/${camp.id}/cancel`],
        ['POST', `/campaigns/${camp.id}/restart`],
        ['DELETE', `/campaigns/${camp.id}/media-upload`],
      ] as const) {
        const res = await asB(method, path, body);
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.body.error).toBe('ERR_NO_CAMPAIGN_FOUND');
      }
      expect((await asB('GET', '/campaigns')).body.records).toEqual([]);
      // B cannot point a campaign at A's list or connection.
      const stolen = await asB('POST', '/campaigns', {
        name: 'Lista alheia',
        contactListId: listA,
      });
      expect(stolen.status).toBe(404);
      const conn = await asB('POST', '/campaigns', {
        name: 'Conexão alheia',
        whatsappId: a.whatsappId,
      });
      expect(conn.status).toBe(404);
      // Settings are per company.
      await settings(a.admin, { variables: [{ key: 'loja', value: 'Loja A' }] });
      const bSettings = await asB('GET', '/campaign-settings');
      expect(bSettings.body.find((s: { key: string }) => s.key === 'variables').value).toBe('[]');
      expect(spyB.received.filter((e) => e.event.includes('campaign'))).toEqual([]);
      expect(spyA.invalid).toEqual([]);
      const [row] = await q<{ name: string }>('SELECT name FROM campaigns WHERE id = $1', [
        camp.id,
      ]);
      expect(row!.name).toBe('Só da A');
    } finally {
      spyA.close();
      spyB.close();
    }
  }, 120_000);
});
