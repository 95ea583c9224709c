import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { loadConfig, type Config } from '../src/config.js';
import { startServer, type RunningServer } from '../src/server.js';
import { adminUrl, databaseUrl } from './db-url.js';

export const ADMIN = { email: 'admin@atende.local', password: 'admin123' };

export interface TestServer extends RunningServer {
  database: string;
  request: <T = any>(method: string, path: string, options?: RequestOptions) => Promise<Answer<T>>;
  login: (email: string, password: string) => Promise<Session>;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  rawBody?: string;
  cookie?: string;
  headers?: Record<string, string>;
}

export interface Answer<T> {
  status: number;
  body: T;
  headers: Headers;
}

export interface Session {
  token: string;
  cookie: string;
  user: any;
}

/** A fresh database cloned from the run's template. */
export async function freshDatabase(): Promise<string> {
  const name = `${inject('templateDatabase')}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('templateDatabase')}`);
  } finally {
    await admin.end();
  }
  return name;
}

export async function dropDatabase(name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

export function testConfig(database: string, env: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl(database),
    REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_PREFIX: `t-${database}`,
    LOG_LEVEL: 'silent',
    // Many test servers share one Postgres (max_connections 100 by default).
    DB_POOL_SIZE: '4',
    WEB_DIR: '/nonexistent',
    ...env,
  });
}

/** A real server (api + worker) on a fresh database and its own Redis prefix. */
export async function startTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  const database = await freshDatabase();
  const server = await startServer(testConfig(database, env));
  const request = async <T>(method: string, path: string, options: RequestOptions = {}) => {
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.cookie) headers.cookie = options.cookie;
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    } else if (body !== undefined) headers['content-type'] ??= 'application/json';
    const res = await fetch(server.url + path, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // Not JSON (metrics): keep the text.
    }
    return { status: res.status, body: parsed as T, headers: res.headers };
  };
  const login = async (email: string, password: string): Promise<Session> => {
    const res = await request<{ token: string; user: unknown }>('POST', '/auth/login', {
      body: { email, password },
    });
    if (res.status !== 200) throw new Error(`login ${email} failed: ${JSON.stringify(res.body)}`);
    const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0]!;
    return { token: res.body.token, cookie, user: res.body.user };
  };
  return {
    ...server,
    database,
    request,
    login,
    close: async () => {
      await server.close();
      await dropDatabase(database);
    },
  };
}
