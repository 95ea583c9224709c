// Issue 13 items 5 and 6: opening a ticket reads it (GET by an old client, PUT by ours) with
// read receipts to WhatsApp behind a company setting; media links any client loads without an
// Authorization header, refused once expired, tampered or for another company.
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signMediaUrl } from '../src/modules/whatsapps/media-links.js';
import { createCompanyWithAdmin } from './fixtures.js';
import { startTestServer, type Session, type TestServer } from './harness.js';
import { SimulatorClient } from './simulator-client.js';
import { listen, type Listening } from './socket-client.js';
import { simConnection, until } from './ticketing/fixtures.js';

// A 1×1 PNG.
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

interface Company {
  companyId: number;
  admin: Session;
  sim: SimulatorClient;
  whatsappId: number;
}

let server: TestServer;
let dataDir: string;
let a: Company;
let b: Company;
const sockets: Listening[] = [];

async function company(): Promise<Company> {
  const c = await createCompanyWithAdmin(server);
  const sim = new SimulatorClient(server.url, c.admin.token);
  return { ...c, sim, whatsappId: await simConnection(server, c.admin, sim) };
}

const newPhone = () =>
  `55119${String(randomBytes(4).readUInt32BE() % 100_000_000).padStart(8, '0')}`;

/** A customer writes `count` messages; answers their ticket once all are stored, and their ids. */
async function customerWrites(c: Company, count: number, phone = newPhone()) {
  const wids: string[] = [];
  for (let i = 0; i < count; i++) {
    const { id } = await c.sim.inbound({ whatsappId: c.whatsappId, from: phone, body: `m${i}` });
    wids.push(id);
  }
  const ticketId = await until(async () => {
    const [row] = (await server.app.ds.query(
      `SELECT t.id, t."unreadMessages" FROM tickets t JOIN contacts c ON c.id = t."contactId"
        WHERE c.number = $1 AND t."companyId" = $2`,
      [phone, c.companyId],
    )) as { id: number; unreadMessages: number }[];
    return row && row.unreadMessages >= count ? row.id : undefined;
  }, 10_000);
  return { ticketId, wids, phone };
}

const ticketRow = async (id: number) =>
  (
    (await server.app.ds.query(`SELECT "unreadMessages", status FROM tickets WHERE id = $1`, [
      id,
    ])) as { unreadMessages: number; status: string }[]
  )[0]!;
const unreadCustomerMessages = async (ticketId: number) =>
  (
    (await server.app.ds.query(
      `SELECT count(*)::int AS n FROM messages WHERE "ticketId" = $1 AND NOT "fromMe" AND NOT read`,
      [ticketId],
    )) as { n: number }[]
  )[0]!.n;

const setReceipts = async (c: Company, value: 'enabled' | 'disabled') => {
  const res = await server.request('PUT', '/settings/sendReadReceipts', {
    token: c.admin.token,
    body: { value },
  });
  expect(res.status).toBe(200);
};

async function socketOf(c: Company): Promise<Listening> {
  const l = await listen(server.url, c.admin.token);
  sockets.push(l);
  return l;
}
const unreadEvents = (l: Listening, companyId: number, ticketId: number) =>
  l.received.filter(
    (r) =>
      r.event === `company-${companyId}-ticket` &&
      (r.payload as { action?: string; ticketId?: number }).action === 'updateUnread' &&
      (r.payload as { ticketId?: number }).ticketId === ticketId,
  );

beforeAll(async () => {
  dataDir = path.join(tmpdir(), `atende-read-media-${randomBytes(4).toString('hex')}`);
  server = await startTestServer({ SIMULATOR: 'on', DATA_DIR: dataDir });
  a = await company();
  b = await company();
}, 60_000);

afterAll(async () => {
  for (const s of sockets) s.close();
  await server?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('read state', () => {
  it('GET /messages/{ticketId} (an old client opening the ticket) reads it', async () => {
    const socket = await socketOf(a);
    const { ticketId, wids } = await customerWrites(a, 3);
    expect(await unreadCustomerMessages(ticketId)).toBe(3);

    const res = await server.request('GET', `/messages/${ticketId}`, { token: a.admin.token });
    expect(res.status).toBe(200);
    expect(res.body.ticket.unreadMessages).toBe(0);
    expect((await ticketRow(ticketId)).unreadMessages).toBe(0);
    expect(await unreadCustomerMessages(ticketId)).toBe(0);
    await until(() => (unreadEvents(socket, a.companyId, ticketId).length ? true : undefined));
    // The receipts reach WhatsApp (the simulator records what the session marked read).
    const state = await a.sim.until(async () => {
      const s = await a.sim.state(a.whatsappId);
      return wids.every((w) => s.reads.includes(w)) ? s : undefined;
    });
    expect(state.reads).toEqual(expect.arrayContaining(wids));

    // An older page (scrolling back) reads nothing again.
    const more = await customerWrites(a, 1);
    const page2 = await server.request('GET', `/messages/${more.ticketId}?pageNumber=2`, {
      token: a.admin.token,
    });
    expect(page2.status).toBe(200);
    expect((await ticketRow(more.ticketId)).unreadMessages).toBe(1);
  });

  it('PUT /messages/{ticketId} (our client) reads it; with the setting off no receipt is sent', async () => {
    const socket = await socketOf(a);
    const on = await customerWrites(a, 2);
    const put = await server.request('PUT', `/messages/${on.ticketId}`, { token: a.admin.token });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ ticketId: on.ticketId, unreadMessages: 0 });
    expect(await unreadCustomerMessages(on.ticketId)).toBe(0);
    await until(() => (unreadEvents(socket, a.companyId, on.ticketId).length ? true : undefined));
    await a.sim.until(async () => {
      const s = await a.sim.state(a.whatsappId);
      return on.wids.every((w) => s.reads.includes(w)) || undefined;
    });

    await setReceipts(a, 'disabled');
    try {
      const off = await customerWrites(a, 2);
      const put2 = await server.request('PUT', `/messages/${off.ticketId}`, {
        token: a.admin.token,
      });
      expect(put2.body).toEqual({ ticketId: off.ticketId, unreadMessages: 0 });
      await until(() =>
        unreadEvents(socket, a.companyId, off.ticketId).length ? true : undefined,
      );
      // A receipt sent after this one's would prove none is queued for the first: the outbound
      // queue of a connection is in order, so once a later ticket's receipt arrived, the
      // earlier one (had it been queued) would have too.
      await setReceipts(a, 'enabled');
      const later = await customerWrites(a, 1);
      await server.request('PUT', `/messages/${later.ticketId}`, { token: a.admin.token });
      const s = await a.sim.until(async () => {
        const st = await a.sim.state(a.whatsappId);
        return st.reads.includes(later.wids[0]!) ? st : undefined;
      });
      for (const w of off.wids) expect(s.reads).not.toContain(w);
    } finally {
      await setReceipts(a, 'enabled');
    }
  });

  it("leaves another user's ticket unread and a closed ticket carries no unread count", async () => {
    const { ticketId } = await customerWrites(a, 2);
    // The ticket belongs to another user of the company (an agent accepted it).
    const [other] = (await server.app.ds.query(
      `INSERT INTO users ("companyId", name, email, "passwordHash", profile)
       VALUES ($1, 'Outra', $2, 'x', 'user') RETURNING id`,
      [a.companyId, `outra-${randomBytes(3).toString('hex')}@empresa.test`],
    )) as { id: number }[];
    await server.app.ds.query(`UPDATE tickets SET status = 'open', "userId" = $2 WHERE id = $1`, [
      ticketId,
      other!.id,
    ]);
    const res = await server.request('GET', `/messages/${ticketId}`, { token: a.admin.token });
    expect(res.status).toBe(200);
    expect(res.body.ticket.unreadMessages).toBe(2);
    expect((await ticketRow(ticketId)).unreadMessages).toBe(2);

    const close = await server.request('PUT', `/tickets/${ticketId}`, {
      token: a.admin.token,
      body: { status: 'closed' },
    });
    expect(close.status).toBe(200);
    expect(await ticketRow(ticketId)).toEqual({ status: 'closed', unreadMessages: 0 });
  });

  it("refuses another company's ticket", async () => {
    const { ticketId } = await customerWrites(b, 1);
    const res = await server.request('PUT', `/messages/${ticketId}`, { token: a.admin.token });
    expect(res.status).toBeGreaterThanOrEqual(403);
    expect((await ticketRow(ticketId)).unreadMessages).toBe(1);
  });
});

describe('signed media links', () => {
  let ticketId: number;
  let link: string;
  let file: string;

  beforeAll(async () => {
    const socket = await socketOf(a);
    const phone = newPhone();
    await a.sim.inbound({
      whatsappId: a.whatsappId,
      from: phone,
      body: '',
      media: { mimetype: 'image/png', fileName: 'foto.png', base64: PNG },
    });
    ticketId = await until(async () => {
      const [row] = (await server.app.ds.query(
        `SELECT m."ticketId" FROM messages m JOIN contacts c ON c.id = m."contactId"
          WHERE c.number = $1 AND m."mediaUrl" IS NOT NULL`,
        [phone],
      )) as { ticketId: number }[];
      return row?.ticketId;
    }, 15_000);
    const res = await server.request('GET', `/messages/${ticketId}`, { token: a.admin.token });
    const message = (res.body.messages as { mediaUrl: string | null }[]).find((m) => m.mediaUrl);
    link = message!.mediaUrl!;
    file = new URL(link).pathname.slice('/media/'.length);
    // The socket event carried the link too: relative (no PUBLIC_URL), signed.
    await until(
      () =>
        socket.received.some(
          (r) =>
            r.event === `company-${a.companyId}-appMessage` &&
            /^\/media\/[\w-]+\.png\?c=\d+&exp=\d+&sig=[\w-]+$/.test(
              String((r.payload as { message?: { mediaUrl?: string } }).message?.mediaUrl),
            ),
        ) || undefined,
    );
  }, 30_000);

  const get = (url: string, headers: Record<string, string> = {}) => fetch(url, { headers });
  const errorOf = async (res: Response) => ((await res.json()) as { error: string }).error;

  it('answers an absolute link that loads without an Authorization header', async () => {
    expect(link.startsWith(`${server.url}/media/`)).toBe(true);
    expect(link).toMatch(/\?c=\d+&exp=\d+&sig=[\w-]{43}$/);
    const res = await get(link);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(Buffer.from(await res.arrayBuffer())).toEqual(Buffer.from(PNG, 'base64'));
  });

  it('keeps the bearer form working; the bare path without a header is refused', async () => {
    const bare = `${server.url}/media/${file}`;
    expect((await get(bare, { authorization: `Bearer ${a.admin.token}` })).status).toBe(200);
    expect((await get(bare)).status).toBe(401);
  });

  it.each([
    [
      'a tampered signature',
      (u: URL) => u.searchParams.set('sig', flip(u.searchParams.get('sig')!)),
      403,
      'ERR_MEDIA_LINK_INVALID',
    ],
    [
      'a later expiry',
      (u: URL) => u.searchParams.set('exp', String(Number(u.searchParams.get('exp')) + 600)),
      403,
      'ERR_MEDIA_LINK_INVALID',
    ],
    [
      "another company's id",
      (u: URL) => u.searchParams.set('c', String(b.companyId)),
      403,
      'ERR_MEDIA_LINK_INVALID',
    ],
    [
      'another file',
      (u: URL) => (u.pathname = `/media/${flip(file.split('.')[0]!)}.png`),
      403,
      'ERR_MEDIA_LINK_INVALID',
    ],
  ])('refuses %s', async (_what, change, status, error) => {
    const u = new URL(link);
    change(u);
    const res = await get(u.toString());
    expect(res.status).toBe(status);
    expect(await errorOf(res)).toBe(error);
  });

  it('refuses a link once expired', async () => {
    const past = Date.now() - 2 * server.app.config.MEDIA_URL_TTL_SECONDS * 1000;
    const expired = signMediaUrl(server.app, a.companyId, `/media/${file}`, server.url, past)!;
    const res = await get(expired);
    expect(res.status).toBe(403);
    expect(await errorOf(res)).toBe('ERR_MEDIA_LINK_EXPIRED');
    // The same link signed now loads: only the expiry refused it.
    const fresh = signMediaUrl(server.app, a.companyId, `/media/${file}`, server.url)!;
    expect((await get(fresh)).status).toBe(200);
  });

  it("a valid link of another company does not reach this company's file", async () => {
    const other = signMediaUrl(server.app, b.companyId, `/media/${file}`, server.url)!;
    const res = await get(other);
    expect(res.status).toBe(404);
    expect(await errorOf(res)).toBe('ERR_NOT_FOUND');
  });

  it('uses PUBLIC_URL as the base when it is set', async () => {
    const config = server.app.config as { PUBLIC_URL?: string };
    config.PUBLIC_URL = 'https://atende.example.com';
    try {
      const res = await server.request('GET', `/messages/${ticketId}`, { token: a.admin.token });
      const m = (res.body.messages as { mediaUrl: string | null }[]).find((x) => x.mediaUrl);
      expect(m!.mediaUrl!.startsWith('https://atende.example.com/media/')).toBe(true);
    } finally {
      delete config.PUBLIC_URL;
    }
  });
});

/** The same string with its first character changed (still base64url). */
function flip(s: string): string {
  return (s[0] === 'A' ? 'B' : 'A') + s.slice(1);
}
