// The socket protocol (issue 12 item 3): the handshake's protocol version, and every payload the
// server emits during a real flow parsed with its schema from shared/src/events.
import {
  CHANGE_PAYLOADS,
  COMPANY_EVENTS,
  ERRORS,
  PROTOCOL_VERSION,
  companyEventName,
  feedAnswer,
  protocolRefusal,
  type ChangeEntity,
} from '@atende/shared';
import { io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Change } from '../src/modules/changes/change-log.js';
import type { Realtime } from '../src/realtime/emitter.js';
import { createCompanyWithAdmin } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';
import { SimulatorClient } from './simulator-client.js';
import { listen, payloadProblem, type Listening } from './socket-client.js';
import { simConnection, until } from './ticketing/fixtures.js';

let server: TestServer;
let companyId: number;
let admin: Awaited<ReturnType<typeof createCompanyWithAdmin>>['admin'];
const open: Listening[] = [];

beforeAll(async () => {
  server = await startTestServer({ SIMULATOR: 'on' });
  const company = await createCompanyWithAdmin(server);
  companyId = company.companyId;
  admin = company.admin;
});
afterAll(async () => {
  for (const l of open) l.close();
  await server?.close();
});

/**
 * Checked by `tsc -p server/tsconfig.test.json` (never called): the emit functions are generic
 * over the event name, so a payload of another event, or an unknown action, does not compile.
 */
export function wrongPayloadsDoNotCompile(realtime: Realtime): void {
  realtime.toCompany(1, 'ticket', { action: 'delete', ticketId: 1 });
  // @ts-expect-error a tag event carries a tag, not a ticket
  realtime.toCompany(1, 'tag', { action: 'update', ticket: { id: 1 } });
  // @ts-expect-error a ticket event has no action `close`
  realtime.toTicketViewers(1, null, 'ticket', { action: 'close', ticketId: 1 });
  // @ts-expect-error the settings event carries the setting
  realtime.toCompanyAdmins(1, 'settings', { action: 'update' });
  // @ts-expect-error an unknown event name
  realtime.toUser(1, 2, 'tickets', { action: 'delete', ticketId: 1 });
  // A change of the feed is typed by its entity too.
  const changes: Change[] = [
    { entity: 'note', entityId: 1, action: 'delete', payload: { action: 'delete', noteId: 1 } },
    {
      entity: 'tag',
      entityId: 1,
      action: 'update',
      // @ts-expect-error a tag change carries a tag
      payload: { action: 'update', note: { id: 1 } },
    },
  ];
  void changes;
}

/** Connects with this handshake auth: `ready`, or the refusal the server gave. */
function handshake(auth: object): Promise<{ ready: true } | { message: string; data: unknown }> {
  const socket = io(server.url, { transports: ['websocket'], auth, reconnection: false });
  return new Promise((resolve) => {
    socket.once('ready', () => {
      socket.close();
      resolve({ ready: true });
    });
    socket.once('connect_error', (err: Error & { data?: unknown }) => {
      socket.close();
      resolve({ message: err.message, data: err.data });
    });
  });
}

describe('protocol version at the handshake', () => {
  it.each([
    ['the current version', { protocol: PROTOCOL_VERSION }],
    ['no version (an old Whaticket client)', {}],
  ])('accepts %s', async (_, extra) => {
    expect(await handshake({ token: admin.token, ...extra })).toEqual({ ready: true });
  });

  it.each([
    ['an older version', PROTOCOL_VERSION - 1, PROTOCOL_VERSION - 1],
    ['a newer version', PROTOCOL_VERSION + 1, PROTOCOL_VERSION + 1],
    ['a version that is not a number', 'v1', -1],
  ])('refuses %s with ERR_PROTOCOL_VERSION and the expected version', async (_, sent, seen) => {
    const answer = await handshake({ token: admin.token, protocol: sent });
    expect(answer).toEqual({
      message: 'ERR_PROTOCOL_VERSION',
      data: {
        error: 'ERR_PROTOCOL_VERSION',
        expected: PROTOCOL_VERSION,
        received: seen,
        message: ERRORS.ERR_PROTOCOL_VERSION.text['pt-BR'],
      },
    });
    expect(protocolRefusal.safeParse((answer as { data: unknown }).data).success).toBe(true);
  });

  it('checks the version before the token (a stale client learns to update first)', async () => {
    const answer = await handshake({ token: 'not-a-token', protocol: PROTOCOL_VERSION + 1 });
    expect(answer).toMatchObject({ message: 'ERR_PROTOCOL_VERSION' });
    expect(await handshake({ token: 'not-a-token', protocol: PROTOCOL_VERSION })).toMatchObject({
      message: 'ERR_INVALID_TOKEN',
    });
  });
});

describe('the test socket client checks what it receives', () => {
  it.each([
    ['ready', undefined, null],
    ['company-3-ticket', { action: 'delete', ticketId: 7, seq: 2 }, null],
    ['company-3-tag', { action: 'update', tag: { id: 5, name: 'VIP' } }, null],
    ['company-3-ticket', { action: 'close', ticketId: 7 }, /company-3-ticket .* does not match/],
    ['company-3-appMessage', { action: 'create', message: { id: 1 } }, /does not match/],
    ['company-3-tags', { action: 'update' }, /not a company event/],
    ['company-3-toString', {}, /not a company event/],
    ['joinTickets', 'open', /not a company event/],
  ])('%s %j → %s', (event, payload, problem) => {
    const found = payloadProblem(event, payload);
    if (problem === null) expect(found).toBeNull();
    else expect(found).toMatch(problem);
  });
});

describe('the payloads the server emits', () => {
  it('validate against their schemas during inbound, accept, note and tag changes', async () => {
    const listening = await listen(server.url, admin.token);
    open.push(listening);
    const sim = new SimulatorClient(server.url, admin.token);
    const whatsappId = await simConnection(server, admin, sim);

    await sim.inbound({ whatsappId, from: '5511955550001', name: 'Bia', body: 'olá' });
    const ticket = await until(async () => {
      const [row] = (await server.app.ds.query(
        `SELECT t.id, t."contactId" FROM tickets t JOIN contacts c ON c.id = t."contactId"
          WHERE c.number = $1 AND t."companyId" = $2`,
        ['5511955550001', companyId],
      )) as { id: number; contactId: number }[];
      return row;
    }, 10_000);
    const call = async (method: string, path: string, body: object, status = 200) => {
      const res = await server.request(method, path, { token: admin.token, body });
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      return res.body as { id: number };
    };
    await call('PUT', `/tickets/${ticket.id}`, { status: 'open', userId: admin.user.id });
    const note = await call(
      'POST',
      '/ticket-notes',
      { note: 'cliente pediu retorno', ticketId: ticket.id, contactId: ticket.contactId },
      201,
    );
    const tag = await call('POST', '/tags', { name: 'Urgente', color: '#ff0000' }, 201);
    await call('PUT', `/tags/${tag.id}`, { name: 'Muito urgente', color: '#00ff00' });
    await call('POST', '/tags/sync', { ticketId: ticket.id, tags: [tag.id] });
    await call('DELETE', `/ticket-notes/${note.id}`, {});

    // Everything above was published once the tag's update arrived (changes go out in order).
    const named = (name: string) =>
      listening.received.filter((r) => companyEventName(companyId, r.event) === name);
    await until(
      () =>
        named('tag').some(
          (r) => (r.payload as { tag?: { name?: string } }).tag?.name === 'Muito urgente',
        ) || undefined,
    );
    expect(listening.invalid).toEqual([]);
    const seen = new Set<string>();
    for (const { event, payload } of listening.received) {
      const name = companyEventName(companyId, event);
      expect(name, `an event of another shape: ${event}`).not.toBeNull();
      const parsed = COMPANY_EVENTS[name!].safeParse(payload);
      expect(parsed.error?.issues, `${event} ${JSON.stringify(payload)}`).toBeUndefined();
      seen.add(`${name}:${(payload as { action: string }).action}`);
    }
    for (const kind of [
      'whatsapp:update',
      'whatsappSession:update',
      'appMessage:create',
      'ticket:update',
      'contact:create',
      'tag:create',
      'tag:update',
    ]) {
      expect(seen, kind).toContain(kind);
    }

    // The change feed's answer, and each row's payload, match their schemas too.
    const feed = await server.request('GET', '/sync/changes?after=0&limit=500', {
      token: admin.token,
    });
    const answer = feedAnswer.parse(feed.body);
    if ('resetRequired' in answer) throw new Error('the feed of a new company was reset');
    expect(answer.head).toBe(answer.last);
    const entities = new Set<string>();
    for (const change of answer.changes) {
      const schema = CHANGE_PAYLOADS[change.entity as ChangeEntity];
      expect(schema, change.entity).toBeDefined();
      const parsed = schema.safeParse(change.payload);
      expect(parsed.error?.issues, JSON.stringify(change)).toBeUndefined();
      entities.add(`${change.entity}:${change.action}`);
    }
    expect([...entities]).toEqual(
      expect.arrayContaining(['note:create', 'note:delete', 'message:create', 'ticket:update']),
    );
  });
});
