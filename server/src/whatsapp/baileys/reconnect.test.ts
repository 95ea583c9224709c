import { DisconnectReason } from 'baileys';
import { describe, expect, it } from 'vitest';
import {
  CloseCode,
  DEFAULT_MAX_QR_CYCLES,
  DEFAULT_RECONNECT_POLICY,
  backoffDelay,
  qrCycleDecision,
  reconnectDecision,
  type ReconnectPolicy,
} from './reconnect.js';

const noJitter: ReconnectPolicy = { ...DEFAULT_RECONNECT_POLICY, random: () => 0.5 };
const lowest: ReconnectPolicy = { ...DEFAULT_RECONNECT_POLICY, random: () => 0 };
const highest: ReconnectPolicy = { ...DEFAULT_RECONNECT_POLICY, random: () => 0.999999 };

describe('reconnectDecision', () => {
  it.each([
    // code, attempt, recent, action, delayMs, status
    [515, 0, 0, 'restart', 0, 'OPENING'],
    [515, 7, 3, 'restart', 0, 'OPENING'],
    [401, 0, 0, 'stop-and-wipe', 0, 'DISCONNECTED'],
    [401, 4, 2, 'stop-and-wipe', 0, 'DISCONNECTED'],
    [403, 0, 0, 'stop', 0, 'DISCONNECTED'],
    [411, 0, 0, 'stop', 0, 'DISCONNECTED'],
    [440, 0, 0, 'check-ownership', 0, 'OPENING'],
    [440, 5, 0, 'check-ownership', 0, 'OPENING'],
    [440, 0, 1, 'check-ownership', 2_000, 'OPENING'],
    [440, 0, 2, 'check-ownership', 4_000, 'OPENING'],
    [440, 0, 4, 'check-ownership', 16_000, 'OPENING'],
    [408, 0, 0, 'backoff', 2_000, 'TIMEOUT'],
    [408, 1, 0, 'backoff', 4_000, 'TIMEOUT'],
    [428, 2, 0, 'backoff', 8_000, 'TIMEOUT'],
    [500, 3, 0, 'backoff', 16_000, 'TIMEOUT'],
    [503, 4, 0, 'backoff', 32_000, 'TIMEOUT'],
    [503, 7, 0, 'backoff', 256_000, 'TIMEOUT'],
    [408, 8, 0, 'backoff', 300_000, 'TIMEOUT'],
    [428, 30, 0, 'backoff', 300_000, 'TIMEOUT'],
    [undefined, 0, 0, 'backoff', 2_000, 'TIMEOUT'],
    [999, 1, 0, 'backoff', 4_000, 'TIMEOUT'],
  ] as const)(
    'code %s attempt %i recent %i → %s after %i ms (%s)',
    (code, attempt, recent, action, delayMs, status) => {
      expect(reconnectDecision(code, attempt, recent, noJitter)).toEqual({
        action,
        delayMs,
        status,
      });
    },
  );

  it('uses the same numbers as Baileys DisconnectReason', () => {
    expect(CloseCode).toEqual({
      loggedOut: DisconnectReason.loggedOut,
      forbidden: DisconnectReason.forbidden,
      connectionLost: DisconnectReason.connectionLost,
      multideviceMismatch: DisconnectReason.multideviceMismatch,
      connectionClosed: DisconnectReason.connectionClosed,
      connectionReplaced: DisconnectReason.connectionReplaced,
      badSession: DisconnectReason.badSession,
      unavailableService: DisconnectReason.unavailableService,
      restartRequired: DisconnectReason.restartRequired,
    });
  });
});

describe('backoffDelay', () => {
  it('starts at 2 s and caps at 5 min', () => {
    expect(DEFAULT_RECONNECT_POLICY.baseDelayMs).toBe(2_000);
    expect(DEFAULT_RECONNECT_POLICY.maxDelayMs).toBe(300_000);
  });

  it.each([
    // attempt, lowest jitter, highest jitter
    [0, 2_000, 2_400],
    [1, 3_200, 4_800],
    [3, 12_800, 19_200],
    [7, 204_800, 300_000],
    [8, 240_000, 300_000],
    [20, 240_000, 300_000],
  ])('attempt %i stays within [%i, %i] ms', (attempt, low, high) => {
    expect(backoffDelay(attempt, lowest)).toBe(low);
    expect(backoffDelay(attempt, highest)).toBe(high);
  });

  it('jitter really varies the delay', () => {
    const values = [0.1, 0.3, 0.7, 0.9].map((r) =>
      backoffDelay(3, { ...DEFAULT_RECONNECT_POLICY, random: () => r }),
    );
    expect(new Set(values).size).toBe(4);
  });
});

describe('qrCycleDecision', () => {
  it(`shows up to ${DEFAULT_MAX_QR_CYCLES} QR codes, then gives up as DISCONNECTED`, () => {
    expect(DEFAULT_MAX_QR_CYCLES).toBe(5);
    for (let shown = 1; shown <= 5; shown++) {
      expect(qrCycleDecision(shown)).toEqual({ action: 'show', status: 'qrcode' });
    }
    expect(qrCycleDecision(6)).toEqual({ action: 'give-up', status: 'DISCONNECTED' });
    expect(qrCycleDecision(3, 2)).toEqual({ action: 'give-up', status: 'DISCONNECTED' });
  });
});
