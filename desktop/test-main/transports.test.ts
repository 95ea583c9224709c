import { describe, expect, it } from 'vitest';
import {
  fetchSnapshot,
  httpMessageTransport,
  httpSyncTransport,
  HttpError,
  type ApiCaller,
  type ApiCallRequest,
} from '../src/main/core/transports.js';

/** An API answering by path, recording each request. */
function fakeApi(answer: (req: ApiCallRequest) => { status: number; data: unknown }) {
  const requests: ApiCallRequest[] = [];
  const api: ApiCaller = {
    call: async <T>(req: ApiCallRequest) => {
      requests.push(req);
      const { status, data } = answer(req);
      return { status, data: data as T };
    },
  };
  return { api, requests };
}

describe('the sync transport', () => {
  it('hands the feed answer over as it came (the shared reader checks it)', async () => {
    const raw = { changes: [], hasMore: false, last: 3, head: 3, extra: 'kept' };
    const { api, requests } = fakeApi(() => ({ status: 200, data: raw }));
    expect(await httpSyncTransport(api).fetchChanges(3, 50)).toEqual(raw);
    expect(requests).toEqual([
      { method: 'GET', path: '/sync/changes', query: { after: 3, limit: 50 } },
    ]);
  });

  it('turns a refused feed request into an HttpError with its code', async () => {
    const { api } = fakeApi(() => ({ status: 401, data: { error: 'ERR_SESSION_EXPIRED' } }));
    const failed = httpSyncTransport(api).fetchChanges(0, 50);
    await expect(failed).rejects.toBeInstanceOf(HttpError);
    await expect(failed).rejects.toThrow('HTTP 401 ERR_SESSION_EXPIRED');
  });

  it('reads a full resync at the head it is given, without asking the feed again', async () => {
    const { api, requests } = fakeApi((req) => {
      if (req.path === '/tickets') {
        const tickets = req.query?.status === 'open' ? [{ id: 1, status: 'open' }] : [];
        return { status: 200, data: { tickets, hasMore: false } };
      }
      if (req.path === '/contacts') return { status: 200, data: { contacts: [], hasMore: false } };
      if (req.path === '/tags/list') return { status: 200, data: [{ id: 4 }] };
      if (req.path === '/messages/1') return { status: 200, data: { messages: [{ id: 9 }] } };
      if (req.path === '/chats') {
        return { status: 200, data: { records: [{ id: 2 }], count: 1, hasMore: false } };
      }
      if (req.path === '/chats/2/messages') {
        return { status: 200, data: { records: [{ id: 5, chatId: 2 }], hasMore: false } };
      }
      return { status: 404, data: { error: 'ERR_NOT_FOUND' } };
    });
    const snapshot = await fetchSnapshot(api, 77);
    expect(snapshot).toEqual({
      cursor: 77,
      tickets: [{ id: 1, status: 'open' }],
      contacts: [],
      tags: [{ id: 4 }],
      messages: [{ id: 9 }],
      chats: [{ id: 2 }],
      chatMessages: [{ id: 5, chatId: 2 }],
    });
    expect(requests.some((r) => r.path === '/sync/changes')).toBe(false);
  });

  it('a plan without internal chat (403) resyncs without chats', async () => {
    const { api } = fakeApi((req) => {
      if (req.path === '/tickets') return { status: 200, data: { tickets: [], hasMore: false } };
      if (req.path === '/contacts') return { status: 200, data: { contacts: [], hasMore: false } };
      if (req.path === '/tags/list') return { status: 200, data: [] };
      if (req.path === '/chats')
        return { status: 403, data: { error: 'ERR_PLAN_FEATURE_DISABLED' } };
      return { status: 404, data: { error: 'ERR_NOT_FOUND' } };
    });
    expect(await fetchSnapshot(api, 3)).toMatchObject({ chats: [], chatMessages: [] });
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
