// Which process runs a connection: a Redis lease (SET NX PX) carrying a fencing epoch. The epoch
// also goes to whatsapps."sessionEpoch", and session writes are conditional on it, so a worker
// that lost its lease (paused, partitioned) cannot overwrite the state of the new holder.
import type { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';

const ACQUIRE = `
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  local epoch = redis.call('INCR', KEYS[2])
  redis.call('SET', KEYS[1], ARGV[1] .. ':' .. epoch, 'PX', ARGV[2])
  return epoch
end
return 0`;

const RENEW = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0`;

const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`;

export class SessionLease {
  private value: string | undefined;
  epoch = 0;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    readonly whatsappId: number,
    private readonly ttlMs: number,
    private readonly owner: string,
  ) {}

  private get key() {
    return `${this.prefix}:wa:lease:${this.whatsappId}`;
  }

  private get epochKey() {
    return `${this.prefix}:wa:epoch:${this.whatsappId}`;
  }

  /**
   * Takes the lease if nobody holds it and fences the connection's row with the new epoch.
   * False when another process holds it or the connection no longer exists.
   */
  async acquire(ds: DataSource): Promise<boolean> {
    const epoch = Number(
      await this.redis.eval(ACQUIRE, 2, this.key, this.epochKey, this.owner, this.ttlMs),
    );
    if (!epoch) return false;
    this.value = `${this.owner}:${epoch}`;
    this.epoch = epoch;
    const [rows] = (await ds.query(
      `UPDATE whatsapps SET "sessionEpoch" = $2 WHERE id = $1 AND "sessionEpoch" < $2 RETURNING id`,
      [this.whatsappId, epoch],
    )) as [unknown[], number];
    if (rows.length) return true;
    // Redis lost its counter (flushed, restored): move it past the database's epoch, retry later.
    const [row] = (await ds.query(`SELECT "sessionEpoch" FROM whatsapps WHERE id = $1`, [
      this.whatsappId,
    ])) as { sessionEpoch: string }[];
    if (row) await this.redis.set(this.epochKey, row.sessionEpoch);
    await this.release();
    return false;
  }

  /** Extends the lease; false means it is lost (expired or taken) and the session must stop. */
  async renew(): Promise<boolean> {
    if (!this.value) return false;
    return Number(await this.redis.eval(RENEW, 1, this.key, this.value, this.ttlMs)) === 1;
  }

  async release(): Promise<void> {
    if (!this.value) return;
    const value = this.value;
    this.value = undefined;
    await this.redis.eval(RELEASE, 1, this.key, value);
  }

  /** Whether the lease is still ours (asked before reconnecting after a 440). */
  async held(): Promise<boolean> {
    return this.value !== undefined && (await this.redis.get(this.key)) === this.value;
  }

  /** The owner string of whoever holds a connection's lease, for tests and operations. */
  static holder(redis: Redis, prefix: string, whatsappId: number): Promise<string | null> {
    return redis.get(`${prefix}:wa:lease:${whatsappId}`);
  }
}
