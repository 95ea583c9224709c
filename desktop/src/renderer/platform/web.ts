import { io, type Socket } from 'socket.io-client';
import { PROTOCOL_VERSION } from '@atende/shared';
import type {
  HttpRequest,
  HttpResponse,
  Platform,
  PlatformNotification,
  RealtimeConnection,
  RealtimeOptions,
  RealtimeStatus,
} from './types';

/** Same origin in production; the Vite dev proxy (/__api) or VITE_API_URL in development. */
export function defaultApiBase(): string {
  const configured = import.meta.env.VITE_API_URL as string | undefined;
  if (configured) return configured.replace(/\/$/, '');
  return import.meta.env.DEV ? '/__api' : '';
}

export function buildUrl(base: string, path: string, query?: HttpRequest['query']): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) params.append(key, String(value));
  }
  const search = params.toString();
  // Media URLs can come back absolute; they are fetched as they are.
  const root = /^https?:\/\//.test(path) ? '' : base;
  const joiner = path.includes('?') ? '&' : '?';
  return `${root}${path}${search ? `${joiner}${search}` : ''}`;
}

async function readBody(response: Response, responseType: HttpRequest['responseType']) {
  if (response.status === 204) return undefined;
  if (responseType === 'blob' && response.ok) return response.blob();
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** socket.io-client behind the RealtimeConnection interface (core §9: websocket only, 18 s). */
class SocketIoConnection implements RealtimeConnection {
  private readonly socket: Socket;

  constructor(url: string, options: RealtimeOptions) {
    this.socket = io(url || undefined, {
      transports: ['websocket'],
      // The protocol version: a server speaking another one refuses with ERR_PROTOCOL_VERSION.
      auth: (cb) => cb({ token: options.getToken(), protocol: PROTOCOL_VERSION }),
      timeout: 18_000,
      reconnection: true,
    });
  }

  get connected(): boolean {
    return this.socket.connected;
  }

  on(event: string, handler: (payload: unknown) => void): () => void {
    this.socket.on(event, handler);
    return () => void this.socket.off(event, handler);
  }

  emit(event: string, ...args: unknown[]): void {
    this.socket.emit(event, ...args);
  }

  onStatus(handler: (status: RealtimeStatus) => void): () => void {
    const up = () => handler('connected');
    const down = () => handler('disconnected');
    this.socket.on('connect', up);
    this.socket.on('disconnect', down);
    return () => {
      this.socket.off('connect', up);
      this.socket.off('disconnect', down);
    };
  }

  onConnectError(handler: (error: { message: string }) => void): () => void {
    const listener = (error: Error) => handler({ message: error.message });
    // The server ends a socket whose session it revoked (logout, login elsewhere, deactivation);
    // socket.io does not reconnect by itself then: the session refreshes, or ends.
    const ended = (reason: string) => {
      if (reason === 'io server disconnect') handler({ message: 'ERR_SESSION_EXPIRED' });
    };
    this.socket.on('connect_error', listener);
    this.socket.on('disconnect', ended);
    return () => {
      this.socket.off('connect_error', listener);
      this.socket.off('disconnect', ended);
    };
  }

  reconnect(): void {
    if (!this.socket.connected) this.socket.connect();
  }

  close(): void {
    this.socket.removeAllListeners();
    this.socket.disconnect();
  }
}

export function createWebPlatform(apiBase = defaultApiBase()): Platform {
  // The socket lives on the same origin as the API; with the dev proxy that is the page origin.
  const socketUrl = apiBase.startsWith('http') ? apiBase : '';
  return {
    kind: 'web',
    async request<T>(req: HttpRequest): Promise<HttpResponse<T>> {
      const headers: Record<string, string> = { Accept: 'application/json' };
      if (req.token) headers.Authorization = `Bearer ${req.token}`;
      let body: BodyInit | undefined;
      if (req.body instanceof FormData) body = req.body;
      else if (req.body !== undefined) {
        headers['Content-Type'] = 'application/json';
        body = JSON.stringify(req.body);
      }
      const response = await fetch(buildUrl(apiBase, req.path, req.query), {
        method: req.method,
        headers,
        body,
        // The refresh token travels in an httpOnly cookie.
        credentials: 'include',
        signal: req.signal,
      });
      return { status: response.status, data: (await readBody(response, req.responseType)) as T };
    },
    connectRealtime: (options) => new SocketIoConnection(socketUrl, options),
    resolveUrl: (path) => (/^(https?:|blob:|data:)/.test(path) ? path : `${apiBase}${path}`),
    notify(notification: PlatformNotification): boolean {
      if (typeof Notification === 'undefined') {
        console.warn('This browser does not support notifications');
        return false;
      }
      if (Notification.permission !== 'granted') {
        void Notification.requestPermission();
        return false;
      }
      const shown = new Notification(notification.title, {
        body: notification.body,
        icon: notification.icon,
        tag: notification.tag,
      });
      shown.onclick = () => {
        window.focus();
        notification.onClick?.();
        shown.close();
      };
      return true;
    },
  };
}
