import { describe, expect, it } from 'vitest';
import { stripNul, transientByCode } from './inbox.js';

describe('transientByCode', () => {
  it.each([
    [{ code: '08006' }, true], // connection failure
    [{ code: '57P01' }, true], // admin shutdown
    [{ code: '53300' }, true], // too many connections
    [{ code: '40P01' }, true], // deadlock
    [{ code: '40001' }, true], // serialization failure
    [{ code: '55P03' }, true], // lock not available
    [{ code: 'ECONNREFUSED' }, true],
    [{ driverError: { code: '08003' } }, true],
    [new Error('Connection terminated unexpectedly'), true],
    [new Error('Connection is closed.'), true],
    [{ code: '22021' }, false], // invalid byte sequence (a NUL)
    [{ code: '23502' }, false], // not null violation
    [{ code: '22007' }, false], // invalid datetime
    [new Error('message X has no sender identity'), false],
    [new TypeError("Cannot read properties of undefined (reading 'phone')"), false],
  ])('%o → %s', (err, transient) => {
    const error = err instanceof Error ? err : Object.assign(new Error('x'), err);
    expect(transientByCode(error)).toBe(transient);
  });
});

describe('stripNul', () => {
  it('removes NUL from every string of an event and says so', () => {
    const event = {
      name: 'message',
      payload: { body: 'a\u0000b', pushName: '\u0000', vcards: ['x\u0000'], n: 1, ok: true },
    };
    expect(stripNul(event)).toEqual({
      value: {
        name: 'message',
        payload: { body: 'ab', pushName: '', vcards: ['x'], n: 1, ok: true },
      },
      changed: true,
    });
    expect(event.payload.body).toBe('a\u0000b');
  });

  it('returns the same object when there is nothing to strip', () => {
    const event = { name: 'ack', payload: { ack: 3, ref: { id: 'A' } } };
    expect(stripNul(event).value).toBe(event);
    expect(stripNul(event).changed).toBe(false);
  });
});
