import { randomBytes } from 'node:crypto';
import { io as connectSocket, type Socket } from 'socket.io-client';
import type { PortEvent, PortMessage } from '../../src/whatsapp/port.js';
import { domainEventsSettled } from '../../src/modules/changes/domain-events.js';
import { createCompanyWithAdmin } from '../fixtures.js';
import type { Session, TestServer } from '../harness.js';
import { validatePayloads } from '../socket-client.js';

/** A connection row (the connections API belongs to the WhatsApp layer). */
export async function addConnection(
  server: TestServer,
  companyId: number,
  name = 'Conexão',
): Promise<number> {
  const [row] = (await server.app.ds.query(
    `INSERT INTO whatsapps ("companyId", name, token, provider, status)
     VALUES ($1, $2, $3, 'simulator', 'CONNECTED') RETURNING id`,
    [companyId, `${name} ${randomBytes(3).toString('hex')}`, randomBytes(16).toString('hex')],
  )) as { id: number }[];
  return row!.id;
}

export async function addQueue(
  server: TestServer,
  companyId: number,
  name: string,
): Promise<number> {
  const [row] = (await server.app.ds.query(
    `INSERT INTO queues ("companyId", name, color) VALUES ($1, $2, $3) RETURNING id`,
    [companyId, name, `#${randomBytes(3).toString('hex')}`],
  )) as { id: number }[];
  return row!.id;
}

export async function addAgent(
  server: TestServer,
  admin: Session,
  options: {
    queueIds?: number[];
    allTicket?: 'enabled' | 'desabled';
    profile?: 'user' | 'admin';
  } = {},
): Promise<Session & { id: number }> {
  const email = `agent-${randomBytes(4).toString('hex')}@empresa.test`;
  const res = await server.request('POST', '/users', {
    token: admin.token,
    body: {
      name: `Agente ${email.slice(6, 10)}`,
      email,
      password: 'Senha123',
      profile: options.profile ?? 'user',
      allTicket: options.allTicket ?? 'desabled',
      queueIds: options.queueIds ?? [],
    },
  });
  if (res.status !== 201) throw new Error(`agent: ${JSON.stringify(res.body)}`);
  const session = await server.login(email, 'Senha123');
  return { ...session, id: res.body.id };
}

export interface Tenant {
  companyId: number;
  admin: Session & { id: number };
  whatsappId: number;
}

export async function tenant(server: TestServer): Promise<Tenant> {
  const company = await createCompanyWithAdmin(server);
  const whatsappId = await addConnection(server, company.companyId);
  return {
    companyId: company.companyId,
    admin: { ...company.admin, id: company.admin.user.id },
    whatsappId,
  };
}

let counter = 0;
/** A customer's text message as a provider raises it. */
export function customerMessage(
  whatsappId: number,
  phone: string,
  overrides: Partial<PortMessage> = {},
): PortMessage {
  return {
    connectionId: String(whatsappId),
    id: `MSG${Date.now().toString(16)}${(++counter).toString(16)}`.toUpperCase(),
    fromMe: false,
    chatId: `${phone}@s.whatsapp.net`,
    contact: { phone },
    pushName: `Cliente ${phone.slice(-4)}`,
    type: 'chat',
    body: `mensagem ${counter}`,
    timestamp: Date.now(),
    isGroup: false,
    offline: false,
    ...overrides,
  };
}

/**
 * Feeds one event to every session listener, as a session does, then waits until the domain-event
 * consumers (routing, timers) have handled what it stored.
 */
export async function deliver(server: TestServer, t: Tenant, event: PortEvent): Promise<void> {
  for (const handler of server.app.hooks.sessionEvent) {
    await handler(server.app, { companyId: t.companyId, whatsappId: t.whatsappId }, event);
  }
  await domainEventsSettled(server.app);
}

export function socketOf(server: TestServer, token: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connectSocket(server.url, { transports: ['websocket'], auth: { token } });
    // Every payload it receives is checked against its schema (shared/src/events).
    validatePayloads(socket);
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

export function emitAck(
  socket: Socket,
  event: string,
  arg?: unknown,
): Promise<{ ok: boolean; error?: string }> {
  return new Promise((resolve) => socket.emit(event, arg, resolve));
}

/** Collects the events a socket receives under a name. */
export function collect(socket: Socket, name: string): any[] {
  const seen: any[] = [];
  socket.on(name, (payload: unknown) => seen.push(payload));
  return seen;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function until<T>(
  check: () => Promise<T | undefined> | T | undefined,
  ms = 5000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > end) throw new Error('condition not met in time');
    await sleep(25);
  }
}

/** A simulator connection, created through the connections API and scanned until CONNECTED. */
export async function simConnection(
  server: TestServer,
  admin: Session,
  sim: { connect: (id: number) => Promise<unknown> },
): Promise<number> {
  const res = await server.request('POST', '/whatsapp', {
    token: admin.token,
    body: { name: `Sim ${randomBytes(3).toString('hex')}`, provider: 'simulator' },
  });
  if (res.status !== 201) throw new Error(`connection: ${JSON.stringify(res.body)}`);
  await sim.connect(res.body.id);
  return res.body.id;
}
