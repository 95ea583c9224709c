/**
 * The one interface between the app and the platform it runs on. The web build implements it
 * over fetch and socket.io-client (web.ts); the desktop app implements it over IPC to the
 * Electron main process, which owns the cache, the outbox and the real connection.
 * The app never calls fetch or socket.io directly.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type QueryValue = string | number | boolean | null | undefined;

export interface HttpRequest {
  method: HttpMethod;
  /** Path on the API, starting with `/`, without the base URL. */
  path: string;
  query?: Record<string, QueryValue>;
  /** JSON-serialisable value, or FormData for uploads. */
  body?: unknown;
  /** Sent as `Authorization: Bearer …` when present. */
  token?: string | null;
  /** 'blob' for media; JSON (or text when the answer is not JSON) otherwise. */
  responseType?: 'json' | 'blob';
  signal?: AbortSignal;
}

/** Every answer resolves, whatever its status; only a network failure rejects. */
export interface HttpResponse<T = unknown> {
  status: number;
  data: T;
}

export type RealtimeStatus = 'connected' | 'disconnected';

export interface RealtimeOptions {
  /** Read on every (re)connection attempt, so a refreshed token is used at once. */
  getToken: () => string | null;
}

export interface RealtimeConnection {
  /** Subscribes to an event; returns the unsubscribe function. */
  on(event: string, handler: (payload: unknown) => void): () => void;
  emit(event: string, ...args: unknown[]): void;
  onStatus(handler: (status: RealtimeStatus) => void): () => void;
  /** The server refused the handshake (usually an expired token). */
  onConnectError(handler: (error: { message: string }) => void): () => void;
  /** Connects again (after a refused handshake socket.io does not retry on its own). */
  reconnect(): void;
  close(): void;
  readonly connected: boolean;
}

export interface PlatformNotification {
  title: string;
  body: string;
  icon?: string;
  tag?: string;
  onClick?: () => void;
}

/**
 * Internal chats as the desktop app's cache holds them (the change feed keeps it filled): the
 * chats page reads them when the server cannot be reached. Chats most recently active first; a
 * chat's messages newest first, `before` a message id.
 */
export interface OfflineChats {
  chats(options?: { limit?: number }): Promise<unknown[]>;
  messages(options: { chatId: number; limit?: number; before?: number }): Promise<unknown[]>;
}

export interface Platform {
  readonly kind: 'web' | 'desktop';
  request<T = unknown>(request: HttpRequest): Promise<HttpResponse<T>>;
  connectRealtime(options: RealtimeOptions): RealtimeConnection;
  /** An absolute URL for a media or logo path the server returned. */
  resolveUrl(path: string): string;
  /** Shows a system notification; false when the platform cannot. */
  notify(notification: PlatformNotification): boolean;
  /** Desktop only: the cached internal chats, read-only. */
  readonly offlineChats?: OfflineChats;
}
