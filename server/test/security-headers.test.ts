import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';

const METRICS_TOKEN = 'a-metrics-token-of-length';
let server: TestServer;
let closed: TestServer | undefined;

beforeAll(async () => {
  server = await startTestServer({ METRICS_TOKEN });
});
afterAll(async () => {
  await server?.close();
  await closed?.close();
});

describe('headers and operations endpoints (issue 11 item 8)', () => {
  it("CSP connect-src allows only our own origin and this host's websocket", async () => {
    const res = await server.request('GET', '/version');
    const csp = res.headers.get('content-security-policy') ?? '';
    const connect = /connect-src ([^;]*)/.exec(csp)?.[1]?.split(' ') ?? [];
    const host = new URL(server.url).host;
    expect(connect).toEqual(["'self'", `ws://${host}`, `wss://${host}`]);
    expect(connect).not.toContain('ws:');
    expect(connect).not.toContain('wss:');
  });

  it.each([
    ['no token', 404, undefined],
    ['a wrong token', 404, 'not-the-metrics-token'],
    ['a user-looking token', 404, 'eyJhbGciOiJIUzI1NiJ9.e30.x'],
    ['the METRICS_TOKEN', 200, METRICS_TOKEN],
  ])('GET /metrics with %s answers %i', async (_name, status, token) => {
    const res = await server.request<string>('GET', '/metrics', { token });
    expect(res.status).toBe(status);
    if (status === 200) expect(res.body).toContain('http_request_duration_seconds');
    else expect(JSON.stringify(res.body)).not.toContain('http_request_duration_seconds');
  });

  it('without METRICS_TOKEN /metrics does not exist', async () => {
    closed = await startTestServer();
    const res = await closed.request<string>('GET', '/metrics');
    expect(res.status).toBe(404);
  });
});
