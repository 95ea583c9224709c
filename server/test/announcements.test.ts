import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changedTables, fingerprint } from './db-snapshot.js';
import { createCompanyWithAdmin } from './fixtures.js';
import { ADMIN, startTestServer, type Session, type TestServer } from './harness.js';
import { eventually, listen } from './socket-client.js';
import { addAgent } from './ticketing/fixtures.js';

let server: TestServer;
let dataDir: string;
let root: Session;
let agentA: Session;
let agentB: Session;
let adminA: Session;

// The smallest valid PNG (1×1) and a PDF header: the upload path checks the first bytes.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');

beforeAll(async () => {
  dataDir = path.join(tmpdir(), `atende-ann-${randomBytes(4).toString('hex')}`);
  server = await startTestServer({ DATA_DIR: dataDir });
  const a = await createCompanyWithAdmin(server);
  const b = await createCompanyWithAdmin(server);
  adminA = a.admin;
  agentA = await addAgent(server, a.admin);
  agentB = await addAgent(server, b.admin);
  // Creating companies signed the super user in; this is the session that stays.
  root = await server.login(ADMIN.email, ADMIN.password);
}, 60_000);
afterAll(async () => {
  await server?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const call = (who: Session, method: string, path: string, body?: unknown) =>
  server.request(method, path, { token: who.token, body });
const unread = async (who: Session) => (await call(who, 'GET', '/announcements/unread')).body;

async function upload(id: number, bytes: Buffer, type: string, name: string) {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type }), name);
  const res = await fetch(`${server.url}/announcements/${id}/media-upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${root.token}` },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as any };
}

describe('announcements (issue 17 item 4)', () => {
  it('only the super user writes them: others get 403 and nothing is written', async () => {
    const before = await fingerprint(server.app.ds);
    for (const who of [adminA, agentA]) {
      const res = await call(who, 'POST', '/announcements', { title: 'Não', text: 'Não' });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('ERR_NO_PERMISSION');
      expect((await call(who, 'PUT', '/announcements/1', { title: 'x' })).status).toBe(403);
      expect((await call(who, 'DELETE', '/announcements/1')).status).toBe(403);
    }
    expect(changedTables(before, await fingerprint(server.app.ds))).toEqual([]);
  });

  it.each([
    [{ text: 'sem título' }, 'body.title'],
    [{ title: '  ', text: 'x' }, 'body.title'],
    [{ title: 'Sem texto' }, 'body.text'],
    [{ title: 'Prioridade', text: 'x', priority: 4 }, 'body.priority'],
  ])('refuses %j (%s) and writes nothing', async (body, field) => {
    const before = await fingerprint(server.app.ds);
    const res = await call(root, 'POST', '/announcements', body);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain(field.split('.')[1]);
    expect(changedTables(before, await fingerprint(server.app.ds))).toEqual([]);
  });

  it('an active announcement reaches every company live; the dot is per user', async () => {
    const socketA = await listen(server.url, agentA.token);
    const socketB = await listen(server.url, agentB.token);
    try {
      const before = [(await unread(agentA)).unread, (await unread(agentB)).unread];
      const made = await call(root, 'POST', '/announcements', {
        title: 'Manutenção',
        text: 'Hoje às 22h',
        priority: '1',
        status: 1,
      });
      expect(made.status).toBe(201);
      expect(made.body).toMatchObject({ priority: 1, status: true, mediaUrl: null });
      const heard = (s: typeof socketA) =>
        s.received.some(
          (e) =>
            e.event === 'company-announcement' &&
            (e.payload as { record?: { id: number } }).record?.id === made.body.id,
        );
      await eventually(() => heard(socketA) && heard(socketB));
      expect([(await unread(agentA)).unread, (await unread(agentB)).unread]).toEqual([
        before[0]! + 1,
        before[1]! + 1,
      ]);

      // Opening the popover clears the caller's dot only, whatever company the other is in.
      expect((await call(agentA, 'POST', '/announcements/read')).body.unread).toBe(0);
      expect((await unread(agentA)).unread).toBe(0);
      expect((await unread(agentB)).unread).toBe(before[1]! + 1);
      expect((await unread(adminA)).unread).toBeGreaterThan(0);

      // A change brings the dot back for everyone.
      await call(root, 'PUT', `/announcements/${made.body.id}`, { text: 'Hoje às 23h' });
      expect((await unread(agentA)).unread).toBe(1);
      expect([...socketA.invalid, ...socketB.invalid]).toEqual([]);
    } finally {
      socketA.close();
      socketB.close();
    }
  });

  it('inactive ones are the super user’s only; defaults to priority 3', async () => {
    const made = await call(root, 'POST', '/announcements', {
      title: 'Rascunho',
      text: 'Ainda não',
      status: false,
    });
    expect(made.body.priority).toBe(3);
    const listOf = async (who: Session) =>
      (await call(who, 'GET', '/announcements')).body.records.map((r: { id: number }) => r.id);
    expect(await listOf(root)).toContain(made.body.id);
    expect(await listOf(agentA)).not.toContain(made.body.id);
    expect((await call(agentA, 'GET', `/announcements/${made.body.id}`)).status).toBe(404);
    const on = await call(root, 'PUT', `/announcements/${made.body.id}`, { status: 'true' });
    expect(on.body.status).toBe(true);
    expect(await listOf(agentA)).toContain(made.body.id);
  });

  it('the image is png, jpg or jpeg only', async () => {
    const made = await call(root, 'POST', '/announcements', { title: 'Imagem', text: 'Com foto' });
    const refused = await upload(made.body.id, PDF, 'application/pdf', 'a.pdf');
    expect(refused.status).toBe(415);
    expect(refused.body.error).toBe('ERR_UNSUPPORTED_MEDIA_TYPE');
    expect((await call(root, 'GET', `/announcements/${made.body.id}`)).body.mediaPath).toBeNull();
    // A file claiming to be a PNG whose bytes are not is refused by the checked upload path.
    expect((await upload(made.body.id, PDF, 'image/png', 'falso.png')).status).toBe(415);
    const ok = await upload(made.body.id, PNG, 'image/png', 'minha foto.png');
    expect(ok.status).toBe(200);
    expect(ok.body.record.mediaName).toBe('minha_foto.png');
    expect(ok.body.record.mediaUrl).toContain('/media/');
    const seen = await call(agentA, 'GET', `/announcements/${made.body.id}`);
    const image = await fetch(seen.body.mediaUrl);
    expect(image.status).toBe(200);
    const gone = await call(root, 'DELETE', `/announcements/${made.body.id}/media-upload`);
    expect(gone.body.record.mediaPath).toBeNull();
    expect((await call(root, 'DELETE', `/announcements/${made.body.id}`)).status).toBe(200);
    expect((await call(agentA, 'GET', `/announcements/${made.body.id}`)).status).toBe(404);
  });
});
