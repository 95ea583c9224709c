import { describe, expect, it } from 'vitest';
import { feedHead, httpMessageTransport, type ApiCaller } from '../src/main/core/transports.js';
import { FakeServer } from './support/fake-server.js';

/** The feed route over the fake server, counting requests; `withHead` adds the head to resets. */
function feedApi(server: FakeServer, withHead = false) {
  const requests: string[] = [];
  const api: ApiCaller = {
    call: async <T>(req: { path: string; query?: Record<string, unknown> }) => {
      requests.push(`${req.path}?after=${String(req.query?.after)}`);
      const data = server.changes(Number(req.query?.after), Number(req.query?.limit)) as object;
      const answer = withHead && 'resetRequired' in data ? { ...data, head: server.seq } : data;
      return { status: 200, data: answer as T };
    },
  };
  return { api, requests };
}

describe('the feed head for a full resync', () => {
  it.each([0, 1, 2, 7, 64, 1000, 12345])(
    'finds head %i of an unpruned log by bisection',
    async (n) => {
      const server = new FakeServer();
      for (let i = 0; i < n; i++) server.upsertTag(`t${i}`);
      const { api, requests } = feedApi(server);
      expect(await feedHead(api)).toBe(n);
      expect(requests.length).toBeLessThanOrEqual(2 * Math.ceil(Math.log2(n + 2)) + 3);
    },
  );

  it('takes the head the server states, in one request', async () => {
    const server = new FakeServer();
    for (let i = 0; i < 5; i++) server.upsertTag(`t${i}`);
    server.prune();
    server.upsertTag('after');
    const { api, requests } = feedApi(server, true);
    expect(await feedHead(api)).toBe(6);
    expect(requests).toHaveLength(1);
  });

  it('says why when the log was pruned and the server states no head', async () => {
    const server = new FakeServer();
    server.upsertTag('a');
    server.prune();
    await expect(feedHead(feedApi(server).api)).rejects.toThrow(/pruned its change feed/);
  });
});

describe('the send transport', () => {
  it('posts the clientId and the quoted message; 200 and 201 are both an ack', async () => {
    const bodies: unknown[] = [];
    let status = 201;
    const api: ApiCaller = {
      call: async <T>(req: { path: string; body?: unknown }) => {
        bodies.push([req.path, req.body]);
        return { status, data: { id: 9 } as T };
      },
    };
    const send = httpMessageTransport(api);
    const input = { ticketId: 3, body: 'oi', clientId: 'c-123456789', quotedMsgId: 5 };
    expect(await send.sendMessage(input)).toEqual({ ok: true, message: { id: 9 } });
    status = 200;
    expect(await send.sendMessage({ ...input, quotedMsgId: null })).toEqual({
      ok: true,
      message: { id: 9 },
    });
    expect(bodies).toEqual([
      ['/messages/3', { body: 'oi', clientId: 'c-123456789', quotedMsg: 5 }],
      ['/messages/3', { body: 'oi', clientId: 'c-123456789' }],
    ]);
    const refused: ApiCaller = {
      call: async <T>() => ({ status: 403, data: { error: 'ERR_TICKET_ACCESS_DENIED' } as T }),
    };
    expect(await httpMessageTransport(refused).sendMessage(input)).toEqual({
      ok: false,
      status: 403,
      code: 'ERR_TICKET_ACCESS_DENIED',
    });
  });
});
