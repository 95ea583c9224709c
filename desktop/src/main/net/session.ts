/**
 * The desktop's one session with the server, held in main: the access token in memory, the
 * refresh token (the server's httpOnly `jrt` cookie) in a vault that main backs with
 * safeStorage. The renderer's requests pass through here, so both sides always use the same
 * token and a refresh by one never strands the other. Runs under plain Node (global fetch).
 */

export const REFRESH_COOKIE = 'jrt';
const AUTH_ANSWER_PATHS = new Set(['/auth/login', '/auth/refresh_token', '/auth/signup']);

export interface TokenVault {
  load(): string | null;
  save(token: string | null): void;
}

export function memoryVault(initial: string | null = null): TokenVault {
  let token = initial;
  return { load: () => token, save: (t) => void (token = t) };
}

export interface ApiRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, string | number | boolean | null | undefined>;
  body?: unknown;
  /** Raw bytes for uploads, with their content type (FormData cannot cross IPC). */
  raw?: { contentType: string; data: Uint8Array };
  responseType?: 'json' | 'blob';
}

export interface ApiResponse<T = unknown> {
  status: number;
  data: T;
  contentType?: string;
}

export function buildUrl(base: string, path: string, query?: ApiRequest['query']): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) params.append(key, String(value));
  }
  const search = params.toString();
  return `${base.replace(/\/$/, '')}${path}${search ? `?${search}` : ''}`;
}

/** The value a Set-Cookie list gives the refresh cookie: a token, null (cleared) or undefined. */
export function refreshCookieOf(setCookies: readonly string[]): string | null | undefined {
  for (const header of setCookies) {
    const [pair = '', ...attributes] = header.split(';');
    const eq = pair.indexOf('=');
    if (eq < 0 || pair.slice(0, eq).trim() !== REFRESH_COOKIE) continue;
    const value = decodeURIComponent(pair.slice(eq + 1).trim());
    const expired = attributes.some((a) => {
      const [k = '', v = ''] = a.split('=');
      const key = k.trim().toLowerCase();
      return (
        (key === 'expires' && Date.parse(v) <= Date.now()) || (key === 'max-age' && Number(v) <= 0)
      );
    });
    return value && !expired ? value : null;
  }
  return undefined;
}

/** The signed-in user as the auth answers describe it (what main needs of it). */
export interface SessionUser {
  id: number;
  companyId: number;
  queues?: { id: number }[];
}

export class ApiSession {
  private accessToken: string | null = null;
  private currentUser: SessionUser | null = null;
  private readonly userListeners = new Set<(user: SessionUser | null) => void>();
  private refreshing: Promise<boolean> | null = null;
  private readonly listeners = new Set<(token: string | null) => void>();

  constructor(
    readonly baseUrl: string,
    private readonly vault: TokenVault,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  get token(): string | null {
    return this.accessToken;
  }

  get user(): SessionUser | null {
    return this.currentUser;
  }

  /** Called when the signed-in user changes (sign in, another account, sign out). */
  onUser(listener: (user: SessionUser | null) => void): () => void {
    this.userListeners.add(listener);
    return () => this.userListeners.delete(listener);
  }

  get signedIn(): boolean {
    return this.vault.load() !== null;
  }

  /** Called with every new access token (the socket reconnects with it). */
  onToken(listener: (token: string | null) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** One request as the server sees it, with the session's token; network failures reject. */
  async send<T = unknown>(req: ApiRequest): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (this.accessToken) headers.Authorization = `Bearer ${this.accessToken}`;
    const refresh = this.vault.load();
    if (refresh && req.path.startsWith('/auth/')) {
      headers.Cookie = `${REFRESH_COOKIE}=${encodeURIComponent(refresh)}`;
    }
    let body: BodyInit | undefined;
    if (req.raw) {
      headers['Content-Type'] = req.raw.contentType;
      body = req.raw.data as unknown as BodyInit;
    } else if (req.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(req.body);
    }
    const response = await this.fetchImpl(buildUrl(this.baseUrl, req.path, req.query), {
      method: req.method,
      headers,
      body,
    });
    const cookie = refreshCookieOf(response.headers.getSetCookie());
    if (cookie !== undefined) this.vault.save(cookie);
    const contentType = response.headers.get('content-type') ?? undefined;
    const data = await readBody(response, req.responseType);
    if (AUTH_ANSWER_PATHS.has(req.path) && response.ok) {
      const answer = data as { token?: unknown; user?: unknown } | undefined;
      if (typeof answer?.token === 'string') this.setToken(answer.token);
      this.setUser(answer?.user);
    }
    if (req.path === '/auth/logout') {
      this.setToken(null);
      this.setUser(null);
    }
    return { status: response.status, data: data as T, contentType };
  }

  /** For main's own calls: a 403 (expired access token) refreshes once and retries. */
  async call<T = unknown>(req: ApiRequest): Promise<ApiResponse<T>> {
    if (!this.accessToken && this.signedIn) await this.refresh();
    let answer = await this.send<T>(req);
    if (answer.status === 403 && (await this.refresh())) answer = await this.send<T>(req);
    return answer;
  }

  /** A new access token from the refresh cookie; concurrent callers share one request. */
  refresh(): Promise<boolean> {
    if (!this.refreshing) {
      this.refreshing = (async () => {
        try {
          if (!this.signedIn) return false;
          const answer = await this.send({ method: 'POST', path: '/auth/refresh_token' });
          if (answer.status !== 200) {
            if (answer.status === 401 || answer.status === 403) this.vault.save(null);
            return false;
          }
          return true;
        } finally {
          this.refreshing = null;
        }
      })();
    }
    return this.refreshing;
  }

  private setUser(raw: unknown): void {
    const user = raw as Partial<SessionUser> | null | undefined;
    const next =
      user && typeof user.id === 'number' && typeof user.companyId === 'number'
        ? (user as SessionUser)
        : null;
    const changed =
      next?.id !== this.currentUser?.id || next?.companyId !== this.currentUser?.companyId;
    this.currentUser = next;
    if (changed) for (const listener of this.userListeners) listener(next);
  }

  private setToken(token: string | null): void {
    this.accessToken = token;
    for (const listener of this.listeners) listener(token);
  }
}

async function readBody(response: Response, responseType: ApiRequest['responseType']) {
  if (response.status === 204) return undefined;
  if (responseType === 'blob' && response.ok) return new Uint8Array(await response.arrayBuffer());
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
