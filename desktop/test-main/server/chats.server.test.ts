import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session, TestServer } from '../../../server/test/harness.js';
import { startTestServer } from '../../../server/test/harness.js';
import { createCompanyWithAdmin } from '../../../server/test/fixtures.js';
import { addAgent } from '../../../server/test/ticketing/fixtures.js';
import { chatMessagesPage, listChats } from '../../src/main/cache/chats.js';
import { setCursor } from '../../src/main/cache/sync-state.js';
import { changeFromEvent } from '../../src/main/core/protocol.js';
import { eventName } from '../../src/main/net/realtime.js';
import { DesktopClient, head, until } from './client.js';

/** Internal chat read offline: the chat changes of the feed reach the SQLite cache. */

let server: TestServer;
let companyId: number;
let email: string;
let password: string;
let adminId: number;
let peer: Session & { id: number };
let stranger: Session & { id: number };
const clients: DesktopClient[] = [];

beforeAll(async () => {
  server = await startTestServer();
  const c = await createCompanyWithAdmin(server);
  ({ companyId, email, password } = c);
  adminId = c.admin.user.id;
  peer = await addAgent(server, c.admin);
  stranger = await addAgent(server, c.admin);
});
afterAll(async () => {
  for (const client of clients) client.close();
  await server?.close();
});

async function signedIn() {
  const client = new DesktopClient(server, { gapGraceMs: 50 });
  clients.push(client);
  await client.signIn(email, password);
  client.link.onEvent((event, payload) => {
    const name = eventName(companyId, event);
    const change = name ? changeFromEvent(name, payload) : null;
    if (change) void client.engine.receive(change).catch(() => undefined);
  });
  client.link.onStatus((s) => {
    if (s === 'connected') void client.engine.connected().catch(() => undefined);
    else client.engine.disconnected();
  });
  return client;
}

const call = async (who: Session, method: string, path: string, body?: unknown) => {
  const res = await server.request(method, path, { token: who.token, body });
  expect(res.status, `${method} ${path}`).toBeLessThan(300);
  return res.body as { id: number; title?: string };
};

const texts = (client: DesktopClient, chatId: number) =>
  chatMessagesPage(client.store.db, chatId, { limit: 200 })
    .map((m) => m.message)
    .reverse();

/** The engine stands at the company's head, everything it was handed written. */
async function caughtUp(client: DesktopClient) {
  await until(async () => client.engine.position === (await head(server, companyId)));
  await client.engine.idle();
}

describe('internal chat in the desktop cache', () => {
  it('live chat events fill the cache: the chat, its messages, a deletion', async () => {
    const client = await signedIn();
    await client.connect();
    await client.engine.idle();
    const chat = await call(peer, 'POST', '/chats', { title: 'Ao vivo', users: [adminId] });
    await call(peer, 'POST', `/chats/${chat.id}/messages`, { message: 'primeira' });
    await call(peer, 'POST', `/chats/${chat.id}/messages`, { message: 'segunda' });
    await until(() => texts(client, chat.id).length === 2);
    expect(texts(client, chat.id)).toEqual(['primeira', 'segunda']);
    const cached = listChats(client.store.db).find((c) => c.id === chat.id);
    expect(cached).toMatchObject({ title: 'Ao vivo', lastMessage: 'segunda' });
    await call(peer, 'DELETE', `/chats/${chat.id}`);
    await until(() => !listChats(client.store.db).some((c) => c.id === chat.id));
    expect(texts(client, chat.id)).toEqual([]);
    await caughtUp(client);
  });

  it('a catch-up after being offline brings the messages, and only the member’s chats', async () => {
    const client = await signedIn();
    await client.connect();
    await caughtUp(client);
    client.link.disconnect();
    const chat = await call(peer, 'POST', '/chats', { title: 'Offline', users: [adminId] });
    for (let i = 0; i < 3; i++) {
      await call(peer, 'POST', `/chats/${chat.id}/messages`, { message: `offline ${i}` });
    }
    const secret = await call(peer, 'POST', '/chats', { title: 'Sem admin', users: [stranger.id] });
    await call(peer, 'POST', `/chats/${secret.id}/messages`, { message: 'não é do admin' });
    expect(texts(client, chat.id)).toEqual([]);
    await client.connect();
    await until(() => texts(client, chat.id).length === 3);
    await caughtUp(client);
    expect(texts(client, chat.id)).toEqual(['offline 0', 'offline 1', 'offline 2']);
    // The admin is not a member of the other chat: the feed never handed it over.
    expect(listChats(client.store.db).map((c) => c.id)).not.toContain(secret.id);
    expect(texts(client, secret.id)).toEqual([]);
    expect(client.errors).toEqual([]);
  });

  it('a full resync (resetRequired) reads the member’s chats and their newest messages', async () => {
    const chat = await call(peer, 'POST', '/chats', { title: 'Resync', users: [adminId] });
    await call(peer, 'POST', `/chats/${chat.id}/messages`, { message: 'no snapshot' });
    const secret = await call(peer, 'POST', '/chats', { title: 'Alheia', users: [stranger.id] });
    const client = await signedIn();
    // A cursor beyond the head: the feed answers resetRequired.
    setCursor(client.store.db, (await head(server, companyId)) + 1000);
    await client.engine.start();
    await client.engine.pull();
    expect(texts(client, chat.id)).toEqual(['no snapshot']);
    const ids = listChats(client.store.db, { limit: 200 }).map((c) => c.id);
    expect(ids).toContain(chat.id);
    expect(ids).not.toContain(secret.id);
  });
});
