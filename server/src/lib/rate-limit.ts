import type { AppContext } from '../context.js';
import { AppError } from '../http/errors.js';

/**
 * A fixed-window counter in Redis, shared by every API process. `hit` counts one attempt and
 * refuses with ERR_TOO_MANY_REQUESTS once the window holds more than `limit`.
 */
export async function hit(
  app: AppContext,
  key: string,
  limit: number,
  windowMs: number,
): Promise<void> {
  const fullKey = `${app.prefix}:rl:${key}`;
  const [[, count]] = (await app.redis
    .multi()
    .incr(fullKey)
    .pexpire(fullKey, windowMs, 'NX')
    .exec()) as [[null, number], [null, number]];
  if (count > limit) throw new AppError('ERR_TOO_MANY_REQUESTS');
}

export async function clearHits(app: AppContext, key: string): Promise<void> {
  await app.redis.del(`${app.prefix}:rl:${key}`);
}
