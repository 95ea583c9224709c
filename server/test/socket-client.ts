import { io, type Socket } from 'socket.io-client';

export interface Listening {
  socket: Socket;
  received: { event: string; payload: unknown }[];
  close: () => void;
}

/**
 * A signed-in socket recording every company event it receives, once the server said `ready`
 * (the handshake's own signal is not recorded).
 */
export async function listen(url: string, token: string): Promise<Listening> {
  const socket = io(url, { transports: ['websocket'], auth: { token }, reconnection: false });
  const received: Listening['received'] = [];
  socket.onAny((event: string, payload: unknown) => {
    if (event !== 'ready') received.push({ event, payload });
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('ready', () => resolve());
    socket.once('connect_error', reject);
  });
  return { socket, received, close: () => socket.close() };
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
  socket.onAny((event: string, payload: unknown) => received.push({ event, payload }));
  await new Promise<void>((resolve, reject) => {
    socket.once('ready', () => resolve());
    socket.once('connect_error', reject);
  });
  return { socket, received, close: () => socket.close() };
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
