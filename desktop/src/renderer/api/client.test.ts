import { contactEndpoints, messageEndpoints, tagEndpoints } from '@atende/shared';
import { describe, expect, it, vi } from 'vitest';
import type { HttpRequest, Platform } from '../platform';
import { createApiClient } from './client';
import { ApiError, errorMessage } from './errors';

const platformAnswering = (...answers: { status: number; data?: unknown }[]) => {
  const requests: HttpRequest[] = [];
  const platform = {
    kind: 'web',
    request: vi.fn(async (req: HttpRequest) => {
      requests.push(req);
      const next = answers.shift() ?? { status: 500 };
      return { status: next.status, data: next.data };
    }),
  } as unknown as Platform;
  return { platform, requests };
};

const hooks = (token = 'old') => {
  const state = { token };
  return {
    state,
    getToken: () => state.token,
    refresh: vi.fn(async () => {
      state.token = 'new';
      return true;
    }),
    onUnauthorized: vi.fn(),
  };
};

describe('api client session rules (core §4)', () => {
  it('sends the bearer token', async () => {
    const { platform, requests } = platformAnswering({ status: 200, data: { ok: 1 } });
    const api = createApiClient(() => platform, hooks());
    await expect(api.get('/version')).resolves.toEqual({ ok: 1 });
    expect(requests[0]).toMatchObject({ method: 'GET', path: '/version', token: 'old' });
  });

  it('on 403 refreshes the token and retries once with the new one', async () => {
    const { platform, requests } = platformAnswering({ status: 403 }, { status: 200, data: 'ok' });
    const h = hooks();
    const api = createApiClient(() => platform, h);
    await expect(api.get('/tickets')).resolves.toBe('ok');
    expect(h.refresh).toHaveBeenCalledOnce();
    expect(requests.map((r) => r.token)).toEqual(['old', 'new']);
  });

  it('retries only once', async () => {
    const { platform, requests } = platformAnswering(
      { status: 403, data: { error: 'ERR_NO_PERMISSION', message: 'x' } },
      { status: 403, data: { error: 'ERR_NO_PERMISSION', message: 'x' } },
    );
    const api = createApiClient(() => platform, hooks());
    await expect(api.get('/users')).rejects.toMatchObject({
      status: 403,
      code: 'ERR_NO_PERMISSION',
    });
    expect(requests).toHaveLength(2);
  });

  it('on 401 clears the session', async () => {
    const { platform } = platformAnswering({ status: 401, data: { error: 'ERR_SESSION_EXPIRED' } });
    const h = hooks();
    const api = createApiClient(() => platform, h);
    await expect(api.get('/tickets')).rejects.toBeInstanceOf(ApiError);
    expect(h.onUnauthorized).toHaveBeenCalledOnce();
  });

  it('public calls skip both rules (a 401 there is a wrong password)', async () => {
    const { platform, requests } = platformAnswering({
      status: 401,
      data: { error: 'ERR_INVALID_CREDENTIALS', message: 'x' },
    });
    const h = hooks();
    const api = createApiClient(() => platform, h);
    await expect(api.post('/auth/login', {}, { auth: false })).rejects.toMatchObject({
      code: 'ERR_INVALID_CREDENTIALS',
    });
    expect(h.onUnauthorized).not.toHaveBeenCalled();
    expect(requests[0]?.token).toBeNull();
  });
});

describe('errorMessage (core §8 toast rules)', () => {
  const generic = 'An error occurred!';
  it('translates a known code', () => {
    const error = new ApiError(401, 'ERR_INVALID_CREDENTIALS', 'whatever');
    expect(errorMessage(error, 'pt-BR', generic)).toBe(
      'Erro de autenticação. Por favor, tente novamente.',
    );
    expect(errorMessage(error, 'en', generic)).toBe('Authentication error. Please try again.');
  });

  it('fills the expiry date of ERR_SUBSCRIPTION_EXPIRED', () => {
    const error = new ApiError(403, 'ERR_SUBSCRIPTION_EXPIRED', undefined, {
      date: '2025-03-04T00:00:00.000Z',
    });
    expect(errorMessage(error, 'pt-BR', generic)).toContain('04/03/2025');
  });

  it('shows the raw error text of an unknown code, a plain string as is, else the generic text', () => {
    expect(errorMessage(new ApiError(400, 'ERR_SOMETHING_NEW', 'Raw text'), 'pt-BR', generic)).toBe(
      'Raw text',
    );
    expect(errorMessage('Plain', 'pt-BR', generic)).toBe('Plain');
    expect(errorMessage(new TypeError('Failed to fetch'), 'pt-BR', generic)).toBe(generic);
  });
});

describe('api.call (the shared route table)', () => {
  it('fills the path, sends the body and answers typed', async () => {
    const { platform, requests } = platformAnswering({ status: 200, data: { id: 7, name: 'vip' } });
    const api = createApiClient(() => platform, hooks());
    const tag = await api.call(tagEndpoints.updateTag, {
      params: { id: 7 },
      body: { name: 'vip' },
    });
    expect(tag.name).toBe('vip');
    expect(requests[0]).toMatchObject({
      method: 'PUT',
      path: '/tags/7',
      body: { name: 'vip' },
      token: 'old',
    });
  });

  it('refuses a path parameter it was not given instead of calling a wrong path', async () => {
    const { platform, requests } = platformAnswering({ status: 200 });
    const api = createApiClient(() => platform, hooks());
    const params = {} as { id: number };
    await expect(api.call(tagEndpoints.showTag, { params })).rejects.toThrow('missing path');
    expect(requests).toHaveLength(0);
  });

  it("sends a multipart endpoint's FormData as it is, and asks a file endpoint for a blob", async () => {
    const { platform, requests } = platformAnswering({ status: 201, data: [] }, { status: 200 });
    const api = createApiClient(() => platform, hooks());
    const form = new FormData();
    form.append('body', 'hi');
    await api.call(messageEndpoints.sendMessage, { params: { ticketId: 3 }, body: form });
    await api.call(contactEndpoints.exportContacts);
    expect(requests[0]).toMatchObject({ method: 'POST', path: '/messages/3', body: form });
    expect(requests[1]).toMatchObject({ method: 'GET', path: '/contacts/export' });
    expect(requests[1]!.responseType).toBe('blob');
  });
});
