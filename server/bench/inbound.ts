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
  /** Where the load generator sends its batches, in turn (the api processes); default [base]. */
  bases?: string[];
  /** More agent sockets (on other api processes) whose deliveries are counted, not timed. */
  others?: Socket[];
}

/** What one socket got of a step's accepted messages. */
export interface SocketCount {
  received: number;
  missing: number;
  doubled: number;
  missingIds: string[];
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
  /** Ids the simulator accepted, for counting what was stored. */
  ids: string[];
  /** Per socket (the timed one first): each accepted message's create event counted. */
  sockets: SocketCount[];
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
  const socket = await agentSocket(base, admin.token);
  return { base, token: admin.token, companyId: admin.user.companyId, connections: ids, socket };
}

/** A signed-in socket that asked for notifications (the agent's rooms). */
export async function agentSocket(base: string, token: string): Promise<Socket> {
  const socket = io(base, { transports: ['websocket'], auth: { token }, reconnection: false });
  await new Promise<void>((resolve, reject) => {
    socket.once('ready', () => resolve());
    socket.once('connect_error', reject);
  });
  await new Promise<void>((r) => socket.emit('joinNotification', {}, () => r()));
  return socket;
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
  /** Called once when half the step's messages have been offered (the failover's kill). */
  midway?: () => void,
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
  const sockets = [setup.socket, ...(setup.others ?? [])];
  const seen = sockets.map(() => new Map<string, number>());
  const counters = sockets.map((_, i) => (e: { action: string; message: { wid: string } }) => {
    if (e.action !== 'create') return;
    const wid = e.message.wid;
    seen[i]!.set(wid, (seen[i]!.get(wid) ?? 0) + 1);
  });
  sockets.forEach((s, i) => s.on(event, counters[i]!));
  const bases = setup.bases ?? [setup.base];
  const acceptedIds: string[] = [];
  let calls = 0;
  const total = Math.round(rate * seconds);
  let accepted = 0;
  let errors = 0;
  const inflight = new Set<Promise<void>>();
  const start = performance.now();
  let next = 0;
  while (next < total) {
    if (midway && next >= total / 2) {
      midway();
      midway = undefined;
    }
    const now = performance.now();
    const batch: { whatsappId: number; from: string; body: string; id: string }[] = [];
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
      const p = call(
        bases[calls++ % bases.length]!,
        'POST',
        '/simulator/inbound/batch',
        setup.token,
        {
          messages: batch,
        },
      )
        .then(
          (res) => {
            if (res.status === 200) {
              accepted += batch.length;
              acceptedIds.push(...batch.map((m) => m.id));
            } else errors += batch.length;
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
  // The other sockets get the last events a moment after the timed one: wait for them too.
  const settle = performance.now() + 5_000;
  const complete = () => seen.every((m) => acceptedIds.every((id) => m.has(id)));
  while (!complete() && performance.now() < settle) await new Promise((r) => setTimeout(r, 50));
  sockets.forEach((s, i) => s.off(event, counters[i]!));
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
    ids: acceptedIds,
    sockets: seen.map((m) => ({
      received: acceptedIds.filter((id) => m.has(id)).length,
      missing: acceptedIds.filter((id) => !m.has(id)).length,
      missingIds: acceptedIds.filter((id) => !m.has(id)),
      doubled: [...m.values()].filter((n) => n > 1).length,
    })),
  };
}
