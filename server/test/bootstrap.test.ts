import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureRedis, redisAnswers } from '../src/lib/redis.js';

const url = `redis://127.0.0.1:${46000 + Math.floor(Math.random() * 1000)}`;
let stop: (() => void) | undefined;

afterEach(() => stop?.());

describe('ensureRedis', () => {
  it('does nothing when Redis answers', async () => {
    expect(await ensureRedis('redis://127.0.0.1:6379', tmpdir())).toBeNull();
  });

  it('starts a private redis-server under DATA_DIR when nothing answers', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'atende-redis-'));
    expect(await redisAnswers(url)).toBe(false);
    const started = await ensureRedis(url, dir);
    stop = started?.stop;
    expect(started).not.toBeNull();
    expect(await redisAnswers(url)).toBe(true);
  });

  it('stops with one clear line when redis-server is not installed', async () => {
    const deadUrl = `redis://127.0.0.1:${47000 + Math.floor(Math.random() * 1000)}`;
    const saved = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      await expect(ensureRedis(deadUrl, tmpdir())).rejects.toThrow(
        `Redis does not answer at ${deadUrl}: install redis-server or set REDIS_URL to a running Redis.`,
      );
    } finally {
      process.env.PATH = saved;
    }
  });
});
