// The send governor end to end: bulk sends through the real connection workers, the simulator
// and Postgres state, on a test clock the governor sleeps on (so a day of pacing takes seconds).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  setSendClock,
  setSendPolicy,
  type SendClock,
  type SendPolicy,
} from '../src/modules/governor/index.js';
import { localTime } from '@atende/shared';
import { connectionQueue } from '../src/whatsapp/connection-queue.js';
import type { OutboundResultHandler } from '../src/whatsapp/hooks.js';
import { enqueueOutbound } from '../src/whatsapp/outbound.js';
import { createCompanyWithAdmin } from './fixtures.js';
import { startTestServer, type TestServer } from './harness.js';
import { SimulatorClient } from './simulator-client.js';

/**
 * A clock the test owns. `auto`: a sleep moves the time forward at once (the governor's waits
 * pass instantly); otherwise a sleep lasts until the test advances the time past it.
 */
class TestClock implements SendClock {
  private sleepers: { at: number; wake: () => void }[] = [];
  constructor(
    public t: number,
    public auto = true,
  ) {}
  now = () => new Date(this.t);
  sleep = (ms: number, signal: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      if (this.auto) {
        this.t += ms;
        setImmediate(resolve);
        return;
      }
      const sleeper = { at: this.t + ms, wake: resolve };
      this.sleepers.push(sleeper);
      signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
    });
  advance(ms: number) {
    this.t += ms;
    for (const s of this.sleepers.filter((x) => x.at <= this.t)) s.wake();
    this.sleepers = this.sleepers.filter((x) => x.at > this.t);
  }
}

const sp = (day: string, time: string) => new Date(`${day}T${time}-03:00`).getTime();
const D = '2026-11-23';
const ZONE = 'America/Sao_Paulo';

let server: TestServer;
let clock = new TestClock(sp(D, '10:00'));
const results: { whatsappId: number; ok: boolean; body: string; at: number }[] = [];
const onResult: OutboundResultHandler = async (_app, job, result) => {
  const body = job.content.kind === 'text' ? job.content.body : job.content.kind;
  results.push({ whatsappId: job.whatsappId, ok: result.ok, body, at: clock.now().getTime() });
};

beforeAll(async () => {
  server = await startTestServer({ SIMULATOR: 'on' });
  server.app.hooks.outboundResult.push(onResult);
});
afterAll(async () => {
  await server?.close();
});
afterEach(() => setSendClock(server.app, undefined));

let phones = 0;
/** A company with a connected simulator number and the given policy overrides. */
async function connection(policy: Partial<SendPolicy>) {
  const { companyId, admin } = await createCompanyWithAdmin(server);
  const sim = new SimulatorClient(server.url, admin.token);
  const res = await server.request('POST', '/whatsapp', {
    token: admin.token,
    body: { name: `Envios ${++phones}`, provider: 'simulator' },
  });
  const whatsappId = res.body.id as number;
  await sim.connect(whatsappId, `55119000${String(phones).padStart(5, '0')}`);
  const ref = { whatsappId, companyId };
  await setSendPolicy(server.app, ref, policy);
  const bulk = (body: string) =>
    enqueueOutbound(
      server.app,
      { ...ref, to: '5511977770000', content: { kind: 'text', body } },
      { lane: 'bulk' },
    );
  const sent = (ok = true) => results.filter((r) => r.whatsappId === whatsappId && r.ok === ok);
  return { ...ref, sim, bulk, sent };
}

const pacing: Partial<SendPolicy> = {
  minGapMs: 20_000,
  jitterMs: 10_000,
  longPauseEvery: 5,
  longPauseMs: 60_000,
  dailyCap: 12,
  warmupCaps: [],
  window: { start: '08:00', end: '20:00' },
  breakerFailures: 3,
  breakerPauseMs: 15 * 60_000,
};

function checkPacing(times: number[]) {
  for (let i = 1; i < times.length; i++) {
    const gap = times[i]! - times[i - 1]!;
    expect(gap).toBeGreaterThanOrEqual(20_000);
    if (i % 5 === 0) expect(gap).toBeGreaterThanOrEqual(60_000);
  }
  const perDay = new Map<string, number>();
  for (const at of times) {
    const local = localTime(new Date(at), ZONE);
    expect(local.minutes).toBeGreaterThanOrEqual(8 * 60);
    expect(local.minutes).toBeLessThan(20 * 60);
    perDay.set(local.day, (perDay.get(local.day) ?? 0) + 1);
  }
  return perDay;
}

describe('bulk lane', () => {
  it('keeps the minimum gap, the long pause every 5 and the daily cap of 12', async () => {
    clock = new TestClock(sp(D, '10:00'));
    setSendClock(server.app, clock);
    const c = await connection(pacing);
    for (let i = 0; i < 16; i++) await c.bulk(`oferta ${i}`);
    await c.sim.until(async () => c.sent().length === 16, 20_000);
    const times = c.sent().map((r) => r.at);
    expect(c.sent().map((r) => r.body)).toEqual(
      Array.from({ length: 16 }, (_, i) => `oferta ${i}`),
    );
    expect(times[0]).toBe(sp(D, '10:00'));
    const perDay = checkPacing(times);
    // Twelve on the first day; the rest from 08:00 the next morning.
    expect([...perDay.entries()]).toEqual([
      [D, 12],
      ['2026-11-24', 4],
    ]);
    expect(times[12]).toBe(sp('2026-11-24', '08:00'));
    // Jitter: the gaps are not all the same.
    const gaps = new Set(times.slice(1, 5).map((t, i) => t - times[i]!));
    expect(gaps.size).toBeGreaterThan(1);
    expect((await c.sim.outbound(c.whatsappId)).map((m) => m.body)).toEqual(
      c.sent().map((r) => r.body),
    );
  });

  it('sends only inside the window in the company time zone', async () => {
    clock = new TestClock(sp(D, '19:58'));
    setSendClock(server.app, clock);
    const c = await connection({ ...pacing, dailyCap: 0 });
    for (let i = 0; i < 8; i++) await c.bulk(`aviso ${i}`);
    await c.sim.until(async () => c.sent().length === 8, 20_000);
    const times = c.sent().map((r) => r.at);
    const perDay = checkPacing(times);
    expect(perDay.get(D)).toBeGreaterThan(0);
    expect(perDay.get('2026-11-24')).toBeGreaterThan(0);
    expect(times.find((t) => t > sp(D, '20:00'))).toBe(sp('2026-11-24', '08:00'));
  });

  it('a disconnect opens the breaker: bulk waits breakerPauseMs after the drop', async () => {
    clock = new TestClock(sp(D, '10:00'));
    setSendClock(server.app, clock);
    const c = await connection({ ...pacing, minGapMs: 1_000, jitterMs: 0 });
    const dropAt = clock.t;
    await c.sim.drop(c.whatsappId, 408);
    await c.sim.waitForStatus(c.whatsappId, 'TIMEOUT');
    await c.sim.waitForStatus(c.whatsappId, 'CONNECTED', 10_000);
    await c.bulk('depois da queda');
    await c.sim.until(async () => c.sent().length === 1, 20_000);
    expect(c.sent()[0]!.at).toBe(dropAt + 15 * 60_000);
  });

  it('three failed bulk sends in a row open the breaker', async () => {
    clock = new TestClock(sp(D, '10:00'));
    setSendClock(server.app, clock);
    const c = await connection({ ...pacing, minGapMs: 1_000, jitterMs: 0 });
    // A media file outside the media folder: the send fails for good, a real failure.
    const broken = { kind: 'media' as const, path: '../../etc/passwd', mimetype: 'text/plain' };
    for (let i = 0; i < 3; i++) {
      await enqueueOutbound(
        server.app,
        { ...c, to: '5511977770000', content: broken },
        {
          lane: 'bulk',
        },
      );
    }
    await c.bulk('depois das falhas');
    await c.sim.until(async () => c.sent().length === 1, 20_000);
    const failures = c.sent(false).map((r) => r.at);
    expect(failures).toEqual([sp(D, '10:00'), sp(D, '10:00:01'), sp(D, '10:00:02')]);
    expect(c.sent()[0]!.at).toBe(failures[2]! + 15 * 60_000);
  });
});

describe('agent lane', () => {
  it("an agent's reply is not held behind 500 queued bulk sends", async () => {
    clock = new TestClock(sp(D, '10:00'), false);
    setSendClock(server.app, clock);
    const c = await connection({ window: null });
    for (let i = 0; i < 500; i += 50) {
      await Promise.all(Array.from({ length: 50 }, (_, k) => c.bulk(`campanha ${i + k}`)));
    }
    // The first bulk send goes; the next waits for its gap on the (stopped) test clock.
    await c.sim.until(async () => c.sent().length === 1);
    const started = Date.now();
    await enqueueOutbound(server.app, {
      ...c,
      to: '5511966660000',
      content: { kind: 'text', body: 'resposta do atendente' },
    });
    await c.sim.until(async () =>
      (await c.sim.outbound(c.whatsappId)).find((m) => m.body === 'resposta do atendente'),
    );
    const latencyMs = Date.now() - started;
    expect(latencyMs).toBeLessThan(5_000);
    const out = await c.sim.outbound(c.whatsappId);
    expect(out.filter((m) => m.body?.startsWith('campanha'))).toHaveLength(1);
    expect(out.map((m) => m.body)).toEqual(['campanha 0', 'resposta do atendente']);
    const counts = await connectionQueue(server.app, c.whatsappId, 'bulk').getJobCounts(
      'waiting',
      'active',
      'delayed',
    );
    expect((counts.waiting ?? 0) + (counts.active ?? 0) + (counts.delayed ?? 0)).toBe(499);
    // Moving the clock past the gap lets the next bulk send go.
    clock.advance(30_000);
    await c.sim.until(async () => c.sent().length === 3);
  });
});
