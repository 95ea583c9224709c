// What to do after WhatsApp closes a session, as a pure function of the close reason, so the
// whole policy is one table that tests can read.
import type { ConnectionStatus } from '../port.js';

export type ReconnectAction = 'restart' | 'backoff' | 'stop' | 'stop-and-wipe' | 'check-ownership';

export interface ReconnectDecision {
  action: ReconnectAction;
  /** Wait this long before acting (0 = now). */
  delayMs: number;
  /** Status to show meanwhile. */
  status: ConnectionStatus;
}

export interface ReconnectPolicy {
  baseDelayMs: number;
  maxDelayMs: number;
  /** Share of the delay that jitter may move either way (0.2 = ±20 %). */
  jitterRatio: number;
  /** Returns a number in [0, 1); 0.5 means no jitter. Injected so tests are exact. */
  random: () => number;
}

export const DEFAULT_RECONNECT_POLICY: ReconnectPolicy = {
  baseDelayMs: 2_000,
  maxDelayMs: 5 * 60_000,
  jitterRatio: 0.2,
  random: Math.random,
};

/** Baileys' DisconnectReason numbers, named here so the table reads without Baileys. */
export const CloseCode = {
  loggedOut: 401,
  forbidden: 403,
  connectionLost: 408,
  multideviceMismatch: 411,
  connectionClosed: 428,
  connectionReplaced: 440,
  badSession: 500,
  unavailableService: 503,
  restartRequired: 515,
} as const;

/** Exponential delay for attempt 0, 1, 2... from base to max, with jitter kept inside the bounds. */
export function backoffDelay(attempt: number, policy: ReconnectPolicy = DEFAULT_RECONNECT_POLICY) {
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt));
  const jitter = (policy.random() * 2 - 1) * policy.jitterRatio * exponential;
  const delay = Math.round(exponential + jitter);
  return Math.min(policy.maxDelayMs, Math.max(policy.baseDelayMs, delay));
}

/**
 * @param code the close reason (statusCode of the Boom error), undefined when unknown
 * @param attempt reconnects tried since the session was last CONNECTED (0 for the first)
 * @param recent how many times this same code closed the session within the caller's window
 *   (only 440 uses it: a replaced session that keeps being replaced must back off)
 */
export function reconnectDecision(
  code: number | undefined,
  attempt: number,
  recent: number,
  policy: ReconnectPolicy = DEFAULT_RECONNECT_POLICY,
): ReconnectDecision {
  switch (code) {
    case CloseCode.restartRequired:
      // Normal right after pairing: the server wants a fresh socket at once.
      return { action: 'restart', delayMs: 0, status: 'OPENING' };
    case CloseCode.loggedOut:
      // The phone unlinked us: the credentials are dead, keeping them only loops.
      return { action: 'stop-and-wipe', delayMs: 0, status: 'DISCONNECTED' };
    case CloseCode.forbidden:
    case CloseCode.multideviceMismatch:
      return { action: 'stop', delayMs: 0, status: 'DISCONNECTED' };
    case CloseCode.connectionReplaced:
      // Another socket took the session: reconnecting blindly makes two sockets fight.
      return {
        action: 'check-ownership',
        delayMs: recent > 0 ? backoffDelay(recent - 1, policy) : 0,
        status: 'OPENING',
      };
    default:
      // 408, 428, 500, 503 and anything unknown: the network or server, so try again later.
      return { action: 'backoff', delayMs: backoffDelay(attempt, policy), status: 'TIMEOUT' };
  }
}

export const DEFAULT_MAX_QR_CYCLES = 5;

/** After this many QR codes without a scan, give up and let a person press "try again". */
export function qrCycleDecision(
  qrShown: number,
  maxCycles: number = DEFAULT_MAX_QR_CYCLES,
): { action: 'show' | 'give-up'; status: ConnectionStatus } {
  return qrShown > maxCycles
    ? { action: 'give-up', status: 'DISCONNECTED' }
    : { action: 'show', status: 'qrcode' };
}
