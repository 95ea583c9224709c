import { describe, expect, it } from 'vitest';
import {
  isConcurrencyAbort,
  MAX_TRANSACTION_ATTEMPTS,
  retryDelayMs,
  transactionConflicts,
  withRetry,
} from './transaction.js';

const pgError = (code: string) => Object.assign(new Error(`pg ${code}`), { code });
// TypeORM wraps the driver's error in a QueryFailedError that keeps it as driverError.
const typeormError = (code: string) =>
  Object.assign(new Error('query failed'), { driverError: pgError(code) });

describe('withRetry', () => {
  it.each([
    ['deadlock', pgError('40P01'), 'deadlocks'],
    ['serialization failure', typeormError('40001'), 'serialization'],
  ] as const)('runs the transaction again after a %s', async (_, error, counter) => {
    const before = transactionConflicts[counter];
    let runs = 0;
    const value = await withRetry(async () => {
      runs += 1;
      if (runs < 3) throw error;
      return 'committed';
    });
    expect(value).toBe('committed');
    expect(runs).toBe(3);
    expect(transactionConflicts[counter] - before).toBe(2);
  });

  it(`gives up after ${MAX_TRANSACTION_ATTEMPTS} attempts with the last error`, async () => {
    let runs = 0;
    const error = pgError('40P01');
    await expect(
      withRetry(async () => {
        runs += 1;
        throw error;
      }),
    ).rejects.toBe(error);
    expect(runs).toBe(MAX_TRANSACTION_ATTEMPTS);
  });

  it.each([
    ['a unique violation', pgError('23505')],
    ['an application error', new Error('ERR_NO_TICKET_FOUND')],
  ])('never repeats %s', async (_, error) => {
    let runs = 0;
    await expect(
      withRetry(async () => {
        runs += 1;
        throw error;
      }),
    ).rejects.toBe(error);
    expect(runs).toBe(1);
    expect(isConcurrencyAbort(error)).toBe(false);
  });

  it.each([
    [1, 0, 0],
    [1, 0.999, 19],
    [2, 0.5, 20],
    [4, 0.999, 159],
  ])('attempt %i with random %f waits %i ms (full jitter, doubling bound)', (n, r, ms) => {
    expect(retryDelayMs(n, () => r)).toBe(ms);
  });
});
