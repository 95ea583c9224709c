import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { upsertTicket } from '../src/main/cache/entities.js';
import { mediaBytes } from '../src/main/cache/media.js';
import { upsertMessage } from '../src/main/cache/messages.js';
import { openCache } from '../src/main/cache/open.js';
import { serveMedia, type MediaCacheDeps } from '../src/main/media-cache.js';
import type { ApiRequest } from '../src/main/net/session.js';

/** Media files as the server's /media route answers them; `online` turns the network off. */
function mediaServer(files: Record<string, number>) {
  const state = { online: true, requests: [] as string[] };
  const api: MediaCacheDeps['api'] = {
    call: async (req: ApiRequest) => {
      if (!state.online) throw new Error('offline');
      state.requests.push(req.path);
      const size = files[req.path.replace('/media/', '')];
      return size === undefined
        ? { status: 404, data: { error: 'ERR_NOT_FOUND' } }
        : { status: 200, data: new Uint8Array(size).fill(7), contentType: 'image/jpeg' };
    },
  };
  return { api, state };
}

function cacheWith(
  messages: { id: number; ticketId: number; media: string }[],
  linkOf = (media: string) => `/media/${media}`,
) {
  const db = openCache();
  upsertTicket(db, { id: 1, status: 'closed', updatedAt: '2026-01-01T00:00:00.000Z' });
  upsertTicket(db, { id: 2, status: 'open', updatedAt: '2026-01-02T00:00:00.000Z' });
  for (const m of messages) {
    upsertMessage(db, {
      id: m.id,
      ticketId: m.ticketId,
      body: '',
      mediaType: 'image',
      mediaUrl: linkOf(m.media),
      createdAt: `2026-01-0${m.id}T00:00:00.000Z`,
    });
  }
  return db;
}

describe('media cache', () => {
  it('fetches once, then serves from disk, also offline', async () => {
    const db = cacheWith([{ id: 1, ticketId: 2, media: 'AbC_12-x.jpg' }]);
    const { api, state } = mediaServer({ 'AbC_12-x.jpg': 1000 });
    const deps = { db, api, dir: mkdtempSync(join(tmpdir(), 'media-')), maxBytes: 10_000 };
    const first = await serveMedia(deps, 'AbC_12-x.jpg');
    expect(first).toMatchObject({ status: 200, contentType: 'image/jpeg' });
    expect(first.data?.byteLength).toBe(1000);
    state.online = false;
    const again = await serveMedia(deps, 'AbC_12-x.jpg');
    expect(again.data?.byteLength).toBe(1000);
    expect(state.requests).toEqual(['/media/AbC_12-x.jpg']);
    expect(mediaBytes(db)).toBe(1000);
  });

  it('keeps the file of a message whose mediaUrl is a signed absolute link (issue 13)', async () => {
    const signed = (media: string) =>
      `https://atende.example.com/media/${media}?c=3&exp=1800000000&sig=abc_DEF-1`;
    const db = cacheWith([{ id: 1, ticketId: 2, media: 'SiGn_12-x.jpg' }], signed);
    const { api, state } = mediaServer({ 'SiGn_12-x.jpg': 500 });
    const deps = { db, api, dir: mkdtempSync(join(tmpdir(), 'media-')), maxBytes: 10_000 };
    expect((await serveMedia(deps, 'SiGn_12-x.jpg')).status).toBe(200);
    expect(mediaBytes(db)).toBe(500);
    state.online = false;
    expect((await serveMedia(deps, 'SiGn_12-x.jpg')).data?.byteLength).toBe(500);
  });

  it('stays under its bound, dropping the closed ticket’s files first', async () => {
    const db = cacheWith([
      { id: 1, ticketId: 1, media: 'closed.jpg' },
      { id: 2, ticketId: 2, media: 'open1.jpg' },
      { id: 3, ticketId: 2, media: 'open2.jpg' },
    ]);
    const dir = mkdtempSync(join(tmpdir(), 'media-'));
    const { api } = mediaServer({ 'closed.jpg': 400, 'open1.jpg': 400, 'open2.jpg': 400 });
    const deps = { db, api, dir, maxBytes: 900 };
    await serveMedia(deps, 'closed.jpg');
    await serveMedia(deps, 'open1.jpg');
    await serveMedia(deps, 'open2.jpg');
    expect(mediaBytes(db)).toBe(800);
    expect(existsSync(join(dir, 'closed.jpg'))).toBe(false);
    expect(existsSync(join(dir, 'open1.jpg'))).toBe(true);
    expect(existsSync(join(dir, 'open2.jpg'))).toBe(true);
  });

  it('refuses names the server never gives, and passes other answers through uncached', async () => {
    const db = cacheWith([]);
    const { api, state } = mediaServer({ 'avatar.png': 10 });
    const deps = { db, api, dir: mkdtempSync(join(tmpdir(), 'media-')), maxBytes: 1000 };
    for (const name of ['../secret.jpg', 'a/b.jpg', '..', 'x.jpg?y', '']) {
      expect(await serveMedia(deps, name)).toEqual({ status: 404 });
    }
    expect(state.requests).toEqual([]);
    expect(await serveMedia(deps, 'missing.jpg')).toEqual({ status: 404 });
    // Not a cached message's media: served, not kept.
    expect((await serveMedia(deps, 'avatar.png')).status).toBe(200);
    expect(mediaBytes(db)).toBe(0);
  });
});
