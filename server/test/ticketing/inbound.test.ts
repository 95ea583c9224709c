import '../../src/modules/messages/inbound.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../harness.js';
import { customerMessage, deliver, tenant, type Tenant } from './fixtures.js';

let server: TestServer;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  server = await startTestServer();
  a = await tenant(server);
  b = await tenant(server);
});
afterAll(() => server?.close());

const q = (sql: string, params: unknown[] = []) => server.app.ds.query(sql, params);

describe('inbound pipeline', () => {
  it('stores a message once: contact, pending ticket, counters and change feed', async () => {
    const msg = customerMessage(a.whatsappId, '5511911110001', { body: 'Olá, preciso de ajuda' });
    await deliver(server, a, { name: 'message', payload: msg });
    await deliver(server, a, { name: 'message', payload: msg });
    const rows = await q('SELECT * FROM messages WHERE "companyId" = $1 AND wid = $2', [
      a.companyId,
      msg.id,
    ]);
    expect(rows).toHaveLength(1);
    const [ticket] = await q('SELECT * FROM tickets WHERE id = $1', [rows[0].ticketId]);
    expect(ticket).toMatchObject({
      status: 'pending',
      unreadMessages: 1,
      lastMessage: 'Olá, preciso de ajuda',
      userId: null,
    });
    const [contact] = await q('SELECT * FROM contacts WHERE id = $1', [ticket.contactId]);
    expect(contact).toMatchObject({ number: '5511911110001', name: 'Cliente 0001' });
    const feed = await q(
      'SELECT seq::int AS seq, entity, action FROM change_log WHERE "companyId" = $1 ORDER BY seq',
      [a.companyId],
    );
    expect(feed.map((r: { seq: number }) => r.seq)).toEqual(
      feed.map((_: unknown, i: number) => i + 1),
    );
    expect(feed.map((r: { entity: string; action: string }) => `${r.entity}:${r.action}`)).toEqual([
      'contact:create',
      'ticket:update',
      'message:create',
    ]);
  });

  it('keeps out-of-order messages in timestamp order and the newest as preview', async () => {
    const phone = '5511911110002';
    const t0 = Date.now();
    const m = [0, 1, 2].map((i) =>
      customerMessage(a.whatsappId, phone, { body: `m${i}`, timestamp: t0 + i * 1000 }),
    );
    for (const i of [2, 0, 1]) await deliver(server, a, { name: 'message', payload: m[i]! });
    const rows = await q(
      `SELECT m.body, t."lastMessage", t."unreadMessages" FROM messages m JOIN tickets t ON t.id = m."ticketId"
        JOIN contacts c ON c.id = m."contactId" WHERE c.number = $1 ORDER BY m."createdAt", m.id`,
      [phone],
    );
    expect(rows.map((r: { body: string }) => r.body)).toEqual(['m0', 'm1', 'm2']);
    expect(rows[0]).toMatchObject({ lastMessage: 'm2', unreadMessages: 3 });
  });

  it('upgrades a ciphertext placeholder in place when the content arrives', async () => {
    const stub = customerMessage(a.whatsappId, '5511911110003', { type: 'ciphertext', body: '' });
    await deliver(server, a, { name: 'message', payload: stub });
    await deliver(server, a, {
      name: 'message',
      payload: { ...stub, type: 'chat', body: 'conteúdo real' },
    });
    await deliver(server, a, { name: 'message', payload: stub });
    const rows = await q('SELECT body, "mediaType" FROM messages WHERE wid = $1', [stub.id]);
    expect(rows).toEqual([{ body: 'conteúdo real', mediaType: 'chat' }]);
  });

  it('a closed ticket stays closed; the next message opens a new pending ticket', async () => {
    const phone = '5511911110004';
    await deliver(server, a, { name: 'message', payload: customerMessage(a.whatsappId, phone) });
    await q(
      `UPDATE tickets SET status = 'closed' FROM contacts c WHERE c.id = tickets."contactId" AND c.number = $1`,
      [phone],
    );
    await deliver(server, a, { name: 'message', payload: customerMessage(a.whatsappId, phone) });
    const tickets = await q(
      `SELECT t.status FROM tickets t JOIN contacts c ON c.id = t."contactId" WHERE c.number = $1 ORDER BY t.id`,
      [phone],
    );
    expect(tickets).toEqual([{ status: 'closed' }, { status: 'pending' }]);
  });

  it('applies acks forward only, edits with history, revokes and reactions', async () => {
    const phone = '5511911110005';
    const mine = customerMessage(a.whatsappId, phone, { fromMe: true, body: 'enviada do celular' });
    const theirs = customerMessage(a.whatsappId, phone, { body: 'texto original' });
    await deliver(server, a, { name: 'message', payload: mine });
    await deliver(server, a, { name: 'message', payload: theirs });
    const ref = { chatId: mine.chatId, id: mine.id, fromMe: true };
    await deliver(server, a, { name: 'ack', payload: { connectionId: '1', ref, ack: 3 } });
    await deliver(server, a, { name: 'ack', payload: { connectionId: '1', ref, ack: 2 } });
    const theirRef = { chatId: theirs.chatId, id: theirs.id, fromMe: false };
    await deliver(server, a, {
      name: 'edit',
      payload: { connectionId: '1', ref: theirRef, body: 'texto novo', timestamp: Date.now() },
    });
    await deliver(server, a, {
      name: 'edit',
      payload: { connectionId: '1', ref: theirRef, body: 'texto novo', timestamp: Date.now() },
    });
    await deliver(server, a, {
      name: 'reaction',
      payload: {
        connectionId: '1',
        target: ref,
        emoji: '👍',
        from: { phone },
        fromMe: false,
        timestamp: Date.now(),
      },
    });
    await deliver(server, a, {
      name: 'reaction',
      payload: {
        connectionId: '1',
        target: ref,
        emoji: '❤️',
        from: { phone },
        fromMe: false,
        timestamp: Date.now(),
      },
    });
    await deliver(server, a, { name: 'revoke', payload: { connectionId: '1', ref: theirRef } });
    const [m1] = await q('SELECT ack, reactions FROM messages WHERE wid = $1', [mine.id]);
    expect(m1.ack).toBe(3);
    expect(m1.reactions).toEqual([{ from: phone, emoji: '❤️', fromMe: false }]);
    const [m2] = await q(
      'SELECT body, "isEdited", "isDeleted", "previousBodies" FROM messages WHERE wid = $1',
      [theirs.id],
    );
    expect(m2).toMatchObject({ body: 'texto novo', isEdited: true, isDeleted: true });
    expect(m2.previousBodies.map((p: { body: string }) => p.body)).toEqual(['texto original']);
    const [t] = await q(
      `SELECT "unreadMessages" FROM tickets t JOIN contacts c ON c.id = t."contactId" WHERE c.number = $1`,
      [phone],
    );
    expect(t.unreadMessages).toBe(1);
  });

  it('merges a LID contact into the phone contact when the mapping is learnt', async () => {
    const lid = '987654321012345';
    await deliver(server, a, {
      name: 'message',
      payload: customerMessage(a.whatsappId, 'x', {
        chatId: `${lid}@lid`,
        contact: { lid },
        pushName: 'Bia',
      }),
    });
    const phone = '5511911110006';
    const [known] = await q(
      `INSERT INTO contacts ("companyId", name, number) VALUES ($1, 'Beatriz', $2) RETURNING id`,
      [a.companyId, phone],
    );
    await deliver(server, a, {
      name: 'contacts',
      payload: { connectionId: '1', contacts: [{ identities: { phone, lid } }] },
    });
    const contacts = await q(
      'SELECT id, number, lid, name FROM contacts WHERE "companyId" = $1 AND (lid = $2 OR number = $3)',
      [a.companyId, lid, phone],
    );
    expect(contacts).toEqual([{ id: known.id, number: phone, lid, name: 'Beatriz' }]);
    const tickets = await q('SELECT id FROM tickets WHERE "contactId" = $1', [known.id]);
    expect(tickets).toHaveLength(1);
    await deliver(server, a, {
      name: 'message',
      payload: customerMessage(a.whatsappId, phone, { contact: { phone, lid } }),
    });
    expect(await q('SELECT id FROM tickets WHERE "contactId" = $1', [known.id])).toHaveLength(1);
    expect(await q('SELECT id FROM messages WHERE "contactId" = $1', [known.id])).toHaveLength(2);
  });

  it('keys messages per company and connection: the same WhatsApp id in B is a different row', async () => {
    const msg = customerMessage(a.whatsappId, '5511911110007');
    await deliver(server, a, { name: 'message', payload: msg });
    await deliver(server, b, {
      name: 'message',
      payload: { ...msg, connectionId: String(b.whatsappId) },
    });
    const rows = await q('SELECT "companyId" FROM messages WHERE wid = $1 ORDER BY "companyId"', [
      msg.id,
    ]);
    expect(rows.map((r: { companyId: number }) => r.companyId)).toEqual([a.companyId, b.companyId]);
    const feedB = await q('SELECT count(*)::int AS n FROM change_log WHERE "companyId" = $1', [
      b.companyId,
    ]);
    expect(feedB[0].n).toBe(3);
  });
});
