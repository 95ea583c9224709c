// (a) Inbound through the simulator: customers' messages at a fixed offered rate across the
// connections, timed from the moment each was due until the agent's socket gets its
// `appMessage` create event.
import { randomBytes } from 'node:crypto';
import { io, type Socket } from 'socket.io-client';
import { call, pct } from './http.js';

export interface InboundSetup {
  base: string;
  token: string;
  companyId: number;
  connections: number[];
  socket: Socket;
}

export interface InboundStep {
  rate: number;
  seconds: number;
  offered: number;
  accepted: number;
  received: number;
  errors: number;
  sustained: number;
  p50: number;
  p99: number;
  max: number;
}

/** A company with `connections` simulator connections, all scanned, and its admin's socket. */
export async function setupInbound(
  base: string,
  superUser: { email: string; password: string },
  connections: number,
): Promise<InboundSetup> {
  const root = (await call(base, 'POST', '/auth/login', undefined, superUser)).body.token;
  const stamp = Date.now();
  const plan = await call(base, 'POST', '/plans', root, {
    name: `Bench ${stamp}`,
    users: 10,
    connections: connections + 5,
    queues: 5,
    value: 1,
  });
  const email = `bench${stamp}@bench.test`;
  await call(base, 'POST', '/companies', root, {
    name: `Bench ${stamp}`,
    email,
    planId: plan.body.id,
    password: 'Senha123',
    dueDate: '2099-12-31',
  });
  const admin = (
    await call(base, 'POST', '/auth/login', undefined, { email, password: 'Senha123' })
  ).body;
  const ids: number[] = [];
  for (let i = 0; i < connections; i++) {
    const res = await call(base, 'POST', '/whatsapp', admin.token, {
      name: `Bench ${i}`,
      provider: 'simulator',
    });
    ids.push(res.body.id);
  }
  const until = async (id: number, status: string) => {
    for (let i = 0; i < 600; i++) {
      const s = await call(base, 'GET', `/simulator/connections/${id}`, admin.token);
      if (s.body?.status === status) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`connection ${id} never reached ${status}`);
  };
  await Promise.all(
    ids.map(async (id) => {
      await until(id, 'qrcode');
      await call(base, 'POST', `/simulator/connections/${id}/scan`, admin.token, {});
      await until(id, 'CONNECTED');
    }),
  );
  const socket = io(base, { transports: ['websocket'], auth: { token: admin.token } });
  await new Promise<void>((r) => socket.once('connect', () => r()));
  await new Promise<void>((r) => socket.emit('joinNotification', {}, () => r()));
  return { base, token: admin.token, companyId: admin.user.companyId, connections: ids, socket };
}

const TICK_MS = 20;

/**
 * Offers `rate` messages a second for `seconds`. Messages due in the same 20 ms tick travel in one
 * control-API call; each message's latency runs from its due time (so the tick's wait counts).
 */
export async function runInboundStep(
  setup: InboundSetup,
  rate: number,
  seconds: number,
  contacts: number,
  first: number,
): Promise<InboundStep> {
  const dueAt = new Map<string, number>();
  const latencies: number[] = [];
  let lastReceived = 0;
  const onMessage = (e: { action: string; message: { wid: string } }) => {
    const due = e.action === 'create' ? dueAt.get(e.message.wid) : undefined;
    if (due === undefined) return;
    lastReceived = performance.now();
    latencies.push(lastReceived - due);
    dueAt.delete(e.message.wid);
  };
  const event = `company-${setup.companyId}-appMessage`;
  setup.socket.on(event, onMessage);
  const total = Math.round(rate * seconds);
  let accepted = 0;
  let errors = 0;
  const inflight = new Set<Promise<void>>();
  const start = performance.now();
  let next = 0;
  while (next < total) {
    const now = performance.now();
    const batch = [];
    for (; next < total && start + (next * 1000) / rate <= now; next++) {
      const k = first + next;
      const id = `3EB0${randomBytes(9).toString('hex').toUpperCase()}`;
      dueAt.set(id, start + (next * 1000) / rate);
      batch.push({
        whatsappId: setup.connections[k % setup.connections.length]!,
        from: `5511${String(900000000 + (k % contacts))}`,
        body: `bench ${k}`,
        id,
      });
    }
    if (batch.length) {
      const p = call(setup.base, 'POST', '/simulator/inbound/batch', setup.token, {
        messages: batch,
      })
        .then(
          (res) => {
            if (res.status === 200) accepted += batch.length;
            else errors += batch.length;
          },
          () => void (errors += batch.length),
        )
        .finally(() => inflight.delete(p));
      inflight.add(p);
    }
    await new Promise((r) => setTimeout(r, TICK_MS));
  }
  await Promise.all(inflight);
  const deadline = performance.now() + 30_000;
  while (latencies.length < accepted && performance.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
  }
  setup.socket.off(event, onMessage);
  const elapsed = (Math.max(lastReceived, start + seconds * 1000) - start) / 1000;
  return {
    rate,
    seconds,
    offered: total,
    accepted,
    received: latencies.length,
    errors,
    sustained: latencies.length / elapsed,
    p50: pct(latencies, 50),
    p99: pct(latencies, 99),
    max: latencies.length ? latencies.reduce((a, b) => Math.max(a, b)) : NaN,
  };
}
