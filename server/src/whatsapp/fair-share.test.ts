import { describe, expect, it } from 'vitest';
import { SessionManager } from './sessions.js';

describe('SessionManager.fairShare', () => {
  it.each([
    // connections, live workers, MAX_SESSIONS_PER_PROCESS, share
    [20, 1, 200, 20],
    [20, 2, 200, 10],
    [21, 2, 200, 11],
    [4, 3, 200, 2],
    [0, 2, 200, 0],
    [1, 2, 200, 1],
    [500, 2, 200, 200],
    [5, 0, 200, 5],
  ])('%i connections over %i workers (max %i): %i each', (connections, workers, max, share) => {
    expect(SessionManager.fairShare(connections, workers, max)).toBe(share);
  });
});
