import type { Database } from 'better-sqlite3';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { evictMedia, findMedia, recordMedia } from './cache/media.js';
import { messageOfMedia } from './cache/messages.js';
import type { ApiRequest, ApiResponse } from './net/session.js';
import { mimeOf } from './security.js';

/** The server names media `<random base64url>.<ext>`; nothing else is fetched or stored. */
const MEDIA_NAME = /^[A-Za-z0-9_-]{1,80}\.[A-Za-z0-9]{1,8}$/;
export const MEDIA_PREFIX = '/__media/';

export interface MediaCacheDeps {
  db: Database;
  dir: string;
  api: { call(req: ApiRequest): Promise<ApiResponse> };
  maxBytes: number;
  now?: () => number;
}

export interface MediaAnswer {
  status: number;
  data?: Uint8Array;
  contentType?: string;
}

/**
 * Serves `app://atende/__media/<name>`: from the cache when the file is there (also offline),
 * else fetched with the agent's session and kept when it belongs to a cached message. Past the
 * size bound, the oldest closed tickets' files are dropped first (evictMedia).
 */
export async function serveMedia(deps: MediaCacheDeps, name: string): Promise<MediaAnswer> {
  if (!MEDIA_NAME.test(name)) return { status: 404 };
  const now = deps.now ?? Date.now;
  const file = join(deps.dir, name);
  const contentType = mimeOf(name);
  if (findMedia(deps.db, file, now())) {
    try {
      return { status: 200, data: new Uint8Array(await readFile(file)), contentType };
    } catch {
      // The file went missing: fetch it again below.
    }
  }
  const answer = await deps.api.call({
    method: 'GET',
    path: `/media/${name}`,
    responseType: 'blob',
  });
  if (answer.status !== 200 || !(answer.data instanceof Uint8Array)) {
    return { status: answer.status === 200 ? 502 : answer.status };
  }
  const message = messageOfMedia(deps.db, `/media/${name}`);
  if (message) {
    await mkdir(deps.dir, { recursive: true });
    await writeFile(file, answer.data);
    recordMedia(deps.db, {
      messageKey: message.key,
      ticketId: message.ticketId,
      path: file,
      bytes: answer.data.byteLength,
      storedAt: now(),
    });
    for (const evicted of evictMedia(deps.db, deps.maxBytes)) await rm(evicted, { force: true });
  }
  return { status: 200, data: answer.data, contentType: answer.contentType ?? contentType };
}
