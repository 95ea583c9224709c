// Sessions end to end on the simulator: events reach the handlers in order (retried on throw),
// sends go out paced under our ids and survive a reconnect, media lands in the company's folder.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectionRef, MediaDownloadResult, OutboundResult } from '../src/whatsapp/hooks.js';
import { enqueueMediaDownload } from '../src/whatsapp/media.js';
import { enqueueOutbound } from '../src/whatsapp/outbound.js';
import type { PortEvent, PortMessage } from '../src/whatsapp/port.js';
import { createCompanyWithAdmin } from './fixtures.js';
import { startTestServer, type Session, type TestServer } from './harness.js';
import { SimulatorClient } from './simulator-client.js';

let server: TestServer;
let a: { companyId: number; admin: Session };
let b: { companyId: number; admin: Session };
let sim: SimulatorClient;
let whatsappId: number;
const seen: { connection: ConnectionRef; event: PortEvent }[] = [];
const results: OutboundResult[] = [];
const media: MediaDownloadResult[] = [];
let failNext = 0;

const onEvent = async (_app: unknown, connection: ConnectionRef, event: PortEvent) => {
  if (event.name === 'message' && event.payload.body === 'falha' && failNext > 0) {
    failNext--;
    throw new Error('handler failure, retried');
  }
  seen.push({ connection, event });
};
const onResult = async (_app: unknown, _job: unknown, result: OutboundResult) => {
  results.push(result);
};
const onMedia = async (_app: unknown, _job: unknown, result: MediaDownloadResult) => {
  media.push(result);
};

beforeAll(async () => {
  server = await startTestServer({
    SIMULATOR: 'on',
    OUTBOUND_BURST: '2',
    OUTBOUND_PER_MINUTE: '600',
    DATA_DIR: `/tmp/atende-media-test-${process.pid}`,
  });
  server.app.hooks.sessionEvent.push(onEvent);
  server.app.hooks.outboundResult.push(onResult);
  server.app.hooks.mediaResult.push(onMedia);
  a = await createCompanyWithAdmin(server);
  b = await createCompanyWithAdmin(server);
  sim = new SimulatorClient(server.url, a.admin.token);
  const res = await server.request('POST', '/whatsapp', {
    token: a.admin.token,
    body: { name: 'Loja', provider: 'simulator' },
  });
  whatsappId = res.body.id;
  await sim.connect(whatsappId, '5511900001111');
});

afterAll(async () => {
  await server?.close();
  const { rm } = await import('node:fs/promises');
  await rm(`/tmp/atende-media-test-${process.pid}`, { recursive: true, force: true });
});

const inbound = () =>
  seen.flatMap((s) =>
    s.event.name === 'message' && !s.event.payload.fromMe ? [s.event.payload as PortMessage] : [],
  );

describe('session events', () => {
  it('hands every event to the handlers, in order, retrying one that throws once', async () => {
    // A second failure would send the event to the dead letters (test/session-inbox.test.ts).
    failNext = 1;
    const bodies = ['um', 'falha', 'dois', 'três'];
    for (const body of bodies) await sim.inbound({ whatsappId, from: '5511988880000', body });
    await sim.until(async () => inbound().length >= 4);
    expect(inbound().map((m) => m.body)).toEqual(bodies);
    expect(failNext).toBe(0);
    expect(seen.find((s) => s.event.name === 'message')!.connection).toEqual({
      whatsappId,
      companyId: a.companyId,
      provider: 'simulator',
    });
    const statuses = seen.flatMap((s) =>
      s.event.name === 'connection' ? [s.event.payload.status] : [],
    );
    expect(statuses).toContain('CONNECTED');
  });
});

describe('sending', () => {
  it('sends under our id, paced, with the echo and the result', async () => {
    const start = results.length;
    const ids = ['OUT000001', 'OUT000002', 'OUT000003', 'OUT000004', 'OUT000005'];
    for (const [i, id] of ids.entries()) {
      await enqueueOutbound(server.app, {
        whatsappId,
        companyId: a.companyId,
        to: '5511988880000',
        content: { kind: 'text', body: `msg ${i}` },
        waMessageId: id,
      });
    }
    const records = await sim.until(async () => {
      const out = await sim.outbound(whatsappId);
      return out.length >= 5 ? out : undefined;
    });
    expect(records.map((r) => r.id)).toEqual(ids);
    expect(records.map((r) => r.body)).toEqual(['msg 0', 'msg 1', 'msg 2', 'msg 3', 'msg 4']);
    // Burst of 2, then one every 100 ms: the last three are spaced.
    expect(records[4]!.at - records[1]!.at).toBeGreaterThanOrEqual(250);
    await sim.until(async () => results.length >= start + 5);
    expect(results.slice(start).every((r) => r.ok)).toBe(true);
    const echoes = () =>
      seen
        .filter((s) => s.event.name === 'message' && s.event.payload.fromMe)
        .map((s) => (s.event.payload as PortMessage).id);
    await sim.until(async () => echoes().length >= 5);
    expect(echoes()).toEqual(ids);

    await sim.ack(whatsappId, ids[0]!, 4);
    await sim.until(async () =>
      seen.some(
        (s) =>
          s.event.name === 'ack' && s.event.payload.ack === 4 && s.event.payload.ref.id === ids[0],
      ),
    );
  });

  it('waits while the session reconnects, then sends', async () => {
    await sim.drop(whatsappId, 408);
    await sim.waitForStatus(whatsappId, 'TIMEOUT');
    await enqueueOutbound(server.app, {
      whatsappId,
      companyId: a.companyId,
      to: '5511988880000',
      content: { kind: 'text', body: 'depois da queda' },
      waMessageId: 'OUTAFTERDROP',
    });
    await sim.waitForStatus(whatsappId, 'CONNECTED', 10_000);
    const sent = await sim.until(async () =>
      (await sim.outbound(whatsappId)).find((r) => r.id === 'OUTAFTERDROP'),
    );
    expect(sent.body).toBe('depois da queda');
  });
});

describe('media', () => {
  it('downloads inbound media into the company folder, served only to that company', async () => {
    const bytes = Buffer.from('%PDF-1.4 boleto');
    await sim.inbound({
      whatsappId,
      from: '5511988880000',
      body: 'boleto',
      media: {
        mimetype: 'application/pdf',
        fileName: 'boleto.pdf',
        base64: bytes.toString('base64'),
      },
    });
    const message = await sim.until(async () => inbound().find((m) => m.body === 'boleto'));
    expect(message.media).toMatchObject({ kind: 'document', fileName: 'boleto.pdf' });
    await enqueueMediaDownload(server.app, {
      whatsappId,
      companyId: a.companyId,
      media: message.media!,
      ref: { chatId: message.chatId, id: message.id, fromMe: false },
    });
    const stored = await sim.until(async () => media.find((m) => m.ok));
    if (!stored.ok) throw new Error('download failed');
    expect(stored.url).toMatch(/^\/media\/[A-Za-z0-9_-]{20,}\.pdf$/);

    const mine = await fetch(server.url + stored.url, {
      headers: { authorization: `Bearer ${a.admin.token}` },
    });
    expect(mine.status).toBe(200);
    expect(mine.headers.get('content-type')).toContain('application/pdf');
    expect(Buffer.from(await mine.arrayBuffer())).toEqual(bytes);
    const theirs = await fetch(server.url + stored.url, {
      headers: { authorization: `Bearer ${b.admin.token}` },
    });
    expect(theirs.status).toBe(404);
    const anonymous = await fetch(server.url + stored.url);
    expect(anonymous.status).toBe(401);
    const traversal = await server.request('GET', '/media/..%2F..%2Fetc%2Fpasswd', {
      token: a.admin.token,
    });
    expect(traversal.status).toBe(404);
  });

  it('sends stored audio as a voice note converted to ogg/opus by ffmpeg', async () => {
    const { execFileSync } = await import('node:child_process');
    const { mkdirSync } = await import('node:fs');
    const dir = `${server.app.config.DATA_DIR}/media/${a.companyId}`;
    mkdirSync(dir, { recursive: true });
    const mp3 = `${dir}/recording-for-voice-note-test.mp3`;
    execFileSync('/usr/bin/ffmpeg', [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:duration=1',
      '-c:a',
      'libmp3lame',
      '-b:a',
      '128k',
      mp3,
    ]);
    await enqueueOutbound(server.app, {
      whatsappId,
      companyId: a.companyId,
      to: '5511988880000',
      content: { kind: 'media', path: mp3, mimetype: 'audio/mpeg', voiceNote: true },
      waMessageId: 'OUTVOICE',
    });
    const sent = await sim.until(async () =>
      (await sim.outbound(whatsappId)).find((r) => r.id === 'OUTVOICE'),
    );
    expect(sent.media).toMatchObject({
      kind: 'audio',
      voiceNote: true,
      mimetype: 'audio/ogg; codecs=opus',
    });
    expect(sent.media!.size).toBeGreaterThan(100);
  });
});
