import { fillPath, type Endpoint, type EndpointAnswer, type EndpointInput } from '@atende/shared';
import type { HttpMethod, HttpRequest, Platform, QueryValue } from '../platform';
import { ApiError } from './errors';

export interface RequestOptions {
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** false for the public calls (login, sign-up, plans, password reset). */
  auth?: boolean;
  responseType?: HttpRequest['responseType'];
  signal?: AbortSignal;
}

/**
 * What `call()` takes: the endpoint's params, query and body; a `multipart` endpoint also takes
 * its body as FormData (files and text fields).
 */
export type CallInput<E extends Endpoint> = (E['multipart'] extends true
  ? Omit<EndpointInput<E>, 'body'> & { body?: EndpointInput<E>['body'] | FormData }
  : EndpointInput<E>) &
  Pick<RequestOptions, 'signal'>;

export interface SessionHooks {
  getToken(): string | null;
  /** Gets a new access token from the refresh cookie; false when the session is gone. */
  refresh(): Promise<boolean>;
  /** The server said 401: clear the session (core §4). */
  onUnauthorized(): void;
}

export interface ApiClient {
  request<T>(method: HttpMethod, path: string, options?: RequestOptions): Promise<T>;
  get<T>(path: string, options?: RequestOptions): Promise<T>;
  post<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  put<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  delete<T>(path: string, options?: RequestOptions): Promise<T>;
  /**
   * Calls an endpoint of the shared route table: its method, its path with `params` filled in,
   * `query` and `body` typed by its schemas, the answer typed by its response schema.
   */
  call<E extends Endpoint>(endpoint: E, input?: CallInput<E>): Promise<EndpointAnswer<E>>;
}

/**
 * HTTP with the session rules of core §4: a 403 refreshes the token and retries once; a 401
 * clears the session. Public calls skip both (their 401 is a wrong password, not a session).
 */
export function createApiClient(platform: () => Platform, hooks: SessionHooks): ApiClient {
  async function request<T>(
    method: HttpMethod,
    path: string,
    options: RequestOptions = {},
  ): Promise<T> {
    const auth = options.auth ?? true;
    const send = () =>
      platform().request<T>({
        method,
        path,
        query: options.query,
        body: options.body,
        token: auth ? hooks.getToken() : null,
        responseType: options.responseType,
        signal: options.signal,
      });

    let answer = await send();
    if (auth && answer.status === 403 && (await hooks.refresh())) answer = await send();
    if (auth && answer.status === 401) hooks.onUnauthorized();
    if (answer.status >= 200 && answer.status < 300) return answer.data;
    throw ApiError.fromAnswer(answer.status, answer.data);
  }

  const call: ApiClient['call'] = async (endpoint, input) =>
    request(
      endpoint.method.toUpperCase() as HttpMethod,
      fillPath(endpoint.path, input?.params as Record<string, unknown> | undefined),
      {
        query: input?.query as Record<string, QueryValue> | undefined,
        body: input?.body,
        auth: endpoint.access !== 'public',
        responseType: endpoint.response === 'file' ? 'blob' : undefined,
        signal: input?.signal,
      },
    );

  return {
    request,
    call,
    get: (path, options) => request('GET', path, options),
    post: (path, body, options) => request('POST', path, { ...options, body }),
    put: (path, body, options) => request('PUT', path, { ...options, body }),
    delete: (path, options) => request('DELETE', path, options),
  };
}
