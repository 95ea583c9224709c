import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness.js';
import { createCompanyWithAdmin } from '../../../test/fixtures.js';
import { SimulatorClient } from '../../../test/simulator-client.js';
import { simConnection, until } from '../../../test/ticketing/fixtures.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ SIMULATOR: 'on' });
});
afterAll(() => server?.close());

describe('simulator batch inbound', () => {
  it('stores every message of a batch in order; a batch naming another company’s connection is 404 and delivers nothing', async () => {
    const a = await createCompanyWithAdmin(server);
    const b = await createCompanyWithAdmin(server);
    const whatsappId = await simConnection(
      server,
      a.admin,
      new SimulatorClient(server.url, a.admin.token),
    );
    const messages = ['um', 'dois', 'três'].map((body, i) => ({
      whatsappId,
      from: '5511977770001',
      body,
      id: `3EB0BATCH${i}`,
    }));
    const res = await server.request('POST', '/simulator/inbound/batch', {
      token: a.admin.token,
      body: { messages },
    });
    expect(res.status).toBe(200);
    expect(res.body.ids).toEqual(messages.map((m) => m.id));
    const rows = await until(async () => {
      const found = await server.app.ds.query(
        `SELECT body FROM messages WHERE "companyId" = $1 ORDER BY "createdAt", id`,
        [a.companyId],
      );
      return found.length === 3 ? (found as { body: string }[]) : undefined;
    });
    expect(rows.map((r) => r.body)).toEqual(['um', 'dois', 'três']);

    const foreign = await server.request('POST', '/simulator/inbound/batch', {
      token: b.admin.token,
      body: { messages: [{ whatsappId, from: '5511977770002', body: 'intruso' }] },
    });
    expect(foreign.status).toBe(404);
    const empty = await server.request('POST', '/simulator/inbound/batch', {
      token: a.admin.token,
      body: { messages: [] },
    });
    expect(empty.status).toBe(400);
    await new Promise((r) => setTimeout(r, 300));
    const intruder = await server.app.ds.query(
      `SELECT count(*)::int AS n FROM messages WHERE body = 'intruso'`,
    );
    expect(intruder[0].n).toBe(0);
  });
});
