import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { startTestServer, type TestServer } from './harness.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ METRICS_TOKEN: 'metrics-token-for-tests' });
});
afterAll(() => server?.close());

describe('operations endpoints', () => {
  it('GET /health answers ok for db and redis', async () => {
    const res = await server.request('GET', '/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', db: 'ok', redis: 'ok' });
  });

  it('GET /health answers 503 naming the failing part', async () => {
    server.app.redis.disconnect();
    try {
      const res = await server.request('GET', '/health');
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ status: 'error', db: 'ok', redis: 'down' });
    } finally {
      await server.app.redis.connect();
    }
  });

  it('GET /version and /metrics', async () => {
    expect((await server.request('GET', '/version')).body).toEqual({ version: '0.1.0' });
    const metrics = await server.request<string>('GET', '/metrics', {
      token: 'metrics-token-for-tests',
    });
    expect(metrics.body).toContain('http_request_duration_seconds');
  });

  it('unknown routes answer ERR_NOT_FOUND', async () => {
    const res = await server.request('GET', '/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('ERR_NOT_FOUND');
  });
});

describe('config', () => {
  it('names the variable that is wrong', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ REDIS_URL: 'nope' })).toThrow(/REDIS_URL/);
  });

  it('refuses the default secret in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/JWT_SECRET/);
    const config = loadConfig({
      NODE_ENV: 'production',
      JWT_SECRET: 'a-real-secret-of-enough-length',
      JWT_REFRESH_SECRET: 'another-real-secret-long-enough',
    });
    expect(config.SIMULATOR).toBe(false);
  });

  it('treats empty variables as unset and turns the simulator on outside production', () => {
    const config = loadConfig({ DATABASE_URL: '', PORT: '' });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.PORT).toBe(8080);
    expect(config.SIMULATOR).toBe(true);
  });
});
