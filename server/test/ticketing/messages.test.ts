import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ffmpeg } from '../../src/whatsapp/media.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompanyWithAdmin } from '../fixtures.js';
import { startTestServer, type TestServer } from '../harness.js';
import { SimulatorClient } from '../simulator-client.js';
import { addAgent, addQueue, simConnection, until } from './fixtures.js';

let server: TestServer;
let sim: SimulatorClient;
let companyId: number;
let admin: { token: string; user: { id: number } };
let whatsappId: number;

beforeAll(async () => {
  server = await startTestServer({ SIMULATOR: 'on' });
  const company = await createCompanyWithAdmin(server);
  companyId = company.companyId;
  admin = company.admin;
  sim = new SimulatorClient(server.url, admin.token);
  whatsappId = await simConnection(server, company.admin, sim);
});
afterAll(() => server?.close());

const ticketOf = (phone: string) =>
  until(async () => {
    const [row] = await server.app.ds.query(
      `SELECT t.id FROM tickets t JOIN contacts c ON c.id = t."contactId"
        WHERE c.number = $1 AND t."companyId" = $2 AND t.status <> 'closed'`,
      [phone, companyId],
    );
    return row?.id as number | undefined;
  }, 10_000);

const bodiesOf = async (phone: string) =>
  (
    await server.app.ds.query(
      `SELECT m.body FROM messages m JOIN contacts c ON c.id = m."contactId"
        WHERE c.number = $1 AND m."companyId" = $2 AND NOT m."fromMe" ORDER BY m."createdAt", m.id`,
      [phone, companyId],
    )
  ).map((r: { body: string }) => r.body) as string[];

describe('messages through the simulator', () => {
  it('pages the thread from the newest back, oldest first within a page, sends idempotently by clientId and tracks acks', async () => {
    const phone = '5511944440001';
    for (let i = 0; i < 22; i++)
      await sim.inbound({ whatsappId, from: phone, name: 'Rita', body: `pergunta ${i}` });
    const ticketId = await ticketOf(phone);
    await until(async () => (await bodiesOf(phone)).length === 22 || undefined, 10_000);
    const page1 = await server.request('GET', `/messages/${ticketId}?pageNumber=1`, {
      token: admin.token,
    });
    expect(page1.body.messages).toHaveLength(20);
    expect(page1.body.hasMore).toBe(true);
    expect(page1.body.count).toBe(22);
    // Whaticket's order: the newest page, its messages oldest first.
    expect(page1.body.messages[0].body).toBe('pergunta 2');
    expect(page1.body.messages[19].body).toBe('pergunta 21');
    const page2 = await server.request('GET', `/messages/${ticketId}?pageNumber=2`, {
      token: admin.token,
    });
    expect(page2.body.messages.map((m: { body: string }) => m.body)).toEqual([
      'pergunta 0',
      'pergunta 1',
    ]);
    expect(page2.body.hasMore).toBe(false);

    const body = { body: 'Olá Rita, como posso ajudar?', clientId: 'client-0001-abcdef' };
    const first = await server.request('POST', `/messages/${ticketId}`, {
      token: admin.token,
      body,
    });
    expect(first.status).toBe(201);
    expect(first.body.wid).toMatch(/^3EB0[0-9A-F]{18}$/);
    const again = await server.request('POST', `/messages/${ticketId}`, {
      token: admin.token,
      body,
    });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    const sent = await sim.until(async () => {
      const out = await sim.outbound(whatsappId);
      return out.length ? out : undefined;
    });
    expect(sent.filter((o) => JSON.stringify(o).includes('como posso ajudar'))).toHaveLength(1);
    expect(JSON.stringify(sent)).toContain(first.body.wid);
    // The echo of our own message does not create a second row.
    const mine = await server.app.ds.query(
      'SELECT id FROM messages WHERE "ticketId" = $1 AND "fromMe"',
      [ticketId],
    );
    expect(mine).toHaveLength(1);
    await until(async () => {
      const [m] = await server.app.ds.query('SELECT ack FROM messages WHERE id = $1', [
        first.body.id,
      ]);
      return m.ack >= 1 || undefined;
    });
    await sim.ack(whatsappId, first.body.wid, 4);
    await until(async () => {
      const [m] = await server.app.ds.query('SELECT ack FROM messages WHERE id = $1', [
        first.body.id,
      ]);
      return m.ack === 4 || undefined;
    });

    const empty = await server.request('POST', `/messages/${ticketId}`, {
      token: admin.token,
      body: { body: '   ' },
    });
    expect(empty.body.error).toBe('ERR_EMPTY_MESSAGE');

    const read = await server.request('PUT', `/messages/${ticketId}`, { token: admin.token });
    expect(read.body.unreadMessages).toBe(0);
    const [t] = await server.app.ds.query('SELECT "unreadMessages" FROM tickets WHERE id = $1', [
      ticketId,
    ]);
    expect(t.unreadMessages).toBe(0);
  });

  it('edits and deletes only own messages; keeps the previous text', async () => {
    const phone = '5511944440002';
    await sim.inbound({ whatsappId, from: phone, body: 'oi' });
    const ticketId = await ticketOf(phone);
    const queue = await addQueue(server, companyId, 'Geral');
    await server.app.ds.query('UPDATE tickets SET "queueId" = $2 WHERE id = $1', [ticketId, queue]);
    const agent = await addAgent(server, admin as never, { queueIds: [queue] });
    const sent = await server.request('POST', `/messages/${ticketId}`, {
      token: admin.token,
      body: { body: 'texto com erro' },
    });
    const notMine = await server.request('POST', `/messages/edit/${sent.body.id}`, {
      token: agent.token,
      body: { body: 'x' },
    });
    expect(notMine.body.error).toBe('ERR_MESSAGE_NOT_OWN');
    const [theirs] = await server.app.ds.query(
      'SELECT id FROM messages WHERE "ticketId" = $1 AND NOT "fromMe"',
      [ticketId],
    );
    expect(
      (await server.request('DELETE', `/messages/${theirs.id}`, { token: admin.token })).body.error,
    ).toBe('ERR_MESSAGE_NOT_OWN');
    const edited = await server.request('POST', `/messages/edit/${sent.body.id}`, {
      token: admin.token,
      body: { body: 'texto corrigido' },
    });
    expect(edited.body).toMatchObject({ body: 'texto corrigido', isEdited: true });
    expect(edited.body.previousBodies.map((p: { body: string }) => p.body)).toEqual([
      'texto com erro',
    ]);
    const deleted = await server.request('DELETE', `/messages/${sent.body.id}`, {
      token: admin.token,
    });
    expect(deleted.body.isDeleted).toBe(true);
    const kinds = await sim.until(async () => {
      const out = JSON.stringify(await sim.outbound(whatsappId));
      return out.includes('texto corrigido') && out.includes('delete') ? out : undefined;
    });
    expect(kinds).toContain(sent.body.wid);
  });

  it('sends a media file from multipart `medias`', async () => {
    const phone = '5511944440003';
    await sim.inbound({ whatsappId, from: phone, body: 'manda o boleto' });
    const ticketId = await ticketOf(phone);
    const form = new FormData();
    form.append('body', 'segue o boleto');
    form.append(
      'medias',
      new Blob([Buffer.from('%PDF-1.4 teste')], { type: 'application/pdf' }),
      'boleto.pdf',
    );
    const res = await fetch(`${server.url}/messages/${ticketId}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.token}` },
      body: form,
    });
    const [message] = (await res.json()) as any[];
    expect(res.status).toBe(201);
    expect(message).toMatchObject({ mediaType: 'application', body: 'segue o boleto' });
    expect(message.mediaUrl.startsWith(`${server.url}/media/`)).toBe(true);
  });

  it('keeps a browser recording as mp3 at 128 kbps and sends it as a voice note', async () => {
    const phone = '5511944440005';
    await sim.inbound({ whatsappId, from: phone, body: 'pode mandar áudio' });
    const ticketId = await ticketOf(phone);
    // A real recording, as MediaRecorder makes it: one second of opus in webm.
    const dir = await mkdtemp(path.join(tmpdir(), 'atende-rec-test-'));
    const webm = path.join(dir, 'audio.webm');
    await ffmpeg(['-f', 'lavfi', '-i', 'sine=frequency=440:duration=1', '-c:a', 'libopus', webm]);
    const form = new FormData();
    form.append('medias', new Blob([await readFile(webm)], { type: 'audio/webm' }), 'audio-1.webm');
    const res = await fetch(`${server.url}/messages/${ticketId}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.token}` },
      body: form,
    });
    expect(res.status).toBe(201);
    const [message] = (await res.json()) as any[];
    expect(message.mediaType).toBe('audio');
    const file = await fetch(message.mediaUrl, {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(file.headers.get('content-type')).toBe('audio/mpeg');
    const stored = path.join(dir, 'stored.mp3');
    await writeFile(stored, Buffer.from(await file.arrayBuffer()));
    const probe = await promisify(execFile)('ffprobe', [
      ...['-v', 'error', '-show_entries', 'stream=codec_name,bit_rate', '-of', 'json'],
      stored,
    ]);
    const stream = JSON.parse(probe.stdout).streams[0];
    expect(stream.codec_name).toBe('mp3');
    expect(Number(stream.bit_rate)).toBe(128_000);
    const sent = await sim.until(async () =>
      (await sim.outbound(whatsappId)).find((o) => o.id === message.wid),
    );
    expect(sent.media).toMatchObject({ kind: 'audio', voiceNote: true });
  });

  it('duplicate, out-of-order, ciphertext-first and replay faults store every message exactly once, in order', async () => {
    const phone = '5511944440004';
    await sim.faults(whatsappId, {
      duplicate: true,
      outOfOrder: true,
      ciphertextFirst: true,
      replayOnReconnect: true,
    });
    const sentIds: string[] = [];
    for (let i = 0; i < 30; i++) {
      const { id } = await sim.inbound({
        whatsappId,
        from: phone,
        body: `msg ${String(i).padStart(2, '0')}`,
      });
      sentIds.push(id);
    }
    await until(async () => (await bodiesOf(phone)).length >= 30 || undefined, 15_000);
    await sim.drop(whatsappId, 428);
    await sim.waitForStatus(whatsappId, 'CONNECTED', 20_000);
    await new Promise((r) => setTimeout(r, 1500));
    const bodies = await bodiesOf(phone);
    expect(bodies).toEqual(
      Array.from({ length: 30 }, (_, i) => `msg ${String(i).padStart(2, '0')}`),
    );
    const rows = await server.app.ds.query(
      `SELECT wid, count(*)::int AS n FROM messages WHERE "companyId" = $1 AND wid = ANY($2) GROUP BY wid`,
      [companyId, sentIds],
    );
    expect(rows).toHaveLength(30);
    expect(rows.every((r: { n: number }) => r.n === 1)).toBe(true);
    await sim.faults(whatsappId, {
      duplicate: false,
      outOfOrder: false,
      ciphertextFirst: false,
      replayOnReconnect: false,
    });
  });
});
