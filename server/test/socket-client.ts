import {
  COMPANY_EVENTS,
  PLATFORM_EVENTS,
  platformEvent,
  type CompanyEventName,
  type PlatformEventName,
} from '@atende/shared';
import { io, type Socket } from 'socket.io-client';

export interface Listening {
  socket: Socket;
  received: { event: string; payload: unknown }[];
  /** The events whose payload did not match their schema (each also fails the run). */
  invalid: string[];
  close: () => void;
}

/**
 * Why a received event breaks the protocol, or null: every event but `ready` is
 * `company-{id}-{name}` with a name of `COMPANY_EVENTS` and a payload its schema accepts
 * (shared/src/events). A payload that drifted from its schema is caught here.
 */
export function payloadProblem(event: string, payload: unknown): string | null {
  if (event === 'ready') return null;
  const platform = (Object.keys(PLATFORM_EVENTS) as PlatformEventName[]).find(
    (n) => platformEvent(n) === event,
  );
  if (platform) {
    const ok = PLATFORM_EVENTS[platform].safeParse(payload);
    return ok.success ? null : `${event} ${JSON.stringify(payload)} does not match its schema`;
  }
  const name = /^company-\d+-(.+)$/.exec(event)?.[1];
  if (name === undefined || !Object.hasOwn(COMPANY_EVENTS, name)) {
    return `${event}: not a company event of shared/src/events`;
  }
  const parsed = COMPANY_EVENTS[name as CompanyEventName].safeParse(payload);
  if (parsed.success) return null;
  const issues = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
  return `${event} ${JSON.stringify(payload)} does not match its schema (${issues})`;
}

/**
 * Checks every event the socket receives against its schema. A mismatch is recorded and thrown
 * outside the socket's dispatch, so Vitest fails the run with it (an unhandled error) whichever
 * test is running, even one that never looks at that event.
 */
export function validatePayloads(socket: Socket): string[] {
  const invalid: string[] = [];
  socket.onAny((event: string, payload: unknown) => {
    const problem = payloadProblem(event, payload);
    if (!problem) return;
    invalid.push(problem);
    setImmediate(() => {
      throw new Error(`socket payload drift: ${problem}`);
    });
  });
  return invalid;
}

/**
 * A signed-in socket recording every company event it receives, once the server said `ready`
 * (the handshake's own signal is not recorded).
 */
export async function listen(url: string, token: string): Promise<Listening> {
  const socket = io(url, { transports: ['websocket'], auth: { token }, reconnection: false });
  const received: Listening['received'] = [];
  const invalid = validatePayloads(socket);
  socket.onAny((event: string, payload: unknown) => {
    if (event !== 'ready') received.push({ event, payload });
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('ready', () => resolve());
    socket.once('connect_error', reject);
  });
  return { socket, received, invalid, close: () => socket.close() };
}

/** Waits until `check` holds or the time runs out. */
export async function eventually(check: () => boolean, timeoutMs = 3000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A signed-in socket that resolves once the server said `ready` (its handlers are in place). */
export async function listenReady(url: string, token: string): Promise<Listening> {
  const socket = io(url, { transports: ['websocket'], auth: { token }, reconnection: false });
  const received: Listening['received'] = [];
  const invalid = validatePayloads(socket);
  socket.onAny((event: string, payload: unknown) => received.push({ event, payload }));
  await new Promise<void>((resolve, reject) => {
    socket.once('ready', () => resolve());
    socket.once('connect_error', reject);
  });
  return { socket, received, invalid, close: () => socket.close() };
}

/** Emits and resolves with the server's acknowledgement. */
export function ack(
  socket: Socket,
  event: string,
  ...args: unknown[]
): Promise<{ ok: boolean; error?: string }> {
  return new Promise((resolve) => socket.emit(event, ...args, resolve));
}

/** Resolves when the server ends the socket, with the reason socket.io gives. */
export function disconnection(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    if (!socket.connected) return resolve('already');
    socket.once('disconnect', (reason: string) => resolve(reason));
  });
}
