import { useEffect, useState } from 'react';
import { api } from '../api';
import type { WhatsappConnection } from '../api/types';
import { useCompanyEvent } from '../session/useRealtime';
import { useChatUnreadFeed } from './chatUnread';
import { CONNECTION_CHECK_DELAY_MS, connectionsNeedAttention } from './menu';

/** The product version shown at the bottom of the drawer. */
export function useVersion(): string | null {
  const [version, setVersion] = useState<string | null>(null);
  useEffect(() => {
    api
      .get<{ version: string }>('/version')
      .then((v) => setVersion(v.version))
      .catch(() => setVersion(null));
  }, []);
  return version;
}

/** The connections '!' badge: checked 2 s after load, then kept live by session events. */
export function useConnectionsWarning(enabled: boolean): boolean {
  const [connections, setConnections] = useState<WhatsappConnection[]>([]);
  useEffect(() => {
    if (!enabled) return;
    const timer = setTimeout(() => {
      api
        .get<WhatsappConnection[]>('/whatsapp/', { query: { session: 0 } })
        .then(setConnections)
        .catch(() => undefined);
    }, CONNECTION_CHECK_DELAY_MS);
    return () => clearTimeout(timer);
  }, [enabled]);

  const apply = (payload: unknown) => {
    const data = payload as {
      action?: string;
      session?: WhatsappConnection;
      whatsapp?: WhatsappConnection;
      whatsappId?: number;
    };
    const changed = data.session ?? data.whatsapp;
    if (data.action === 'update' && changed) {
      setConnections((list) =>
        list.some((c) => c.id === changed.id)
          ? list.map((c) => (c.id === changed.id ? { ...c, ...changed } : c))
          : [...list, changed],
      );
    } else if (data.action === 'delete' && data.whatsappId !== undefined) {
      setConnections((list) => list.filter((c) => c.id !== data.whatsappId));
    }
  };
  useCompanyEvent('whatsappSession', apply);
  useCompanyEvent('whatsapp', apply);
  return enabled && connectionsNeedAttention(connections);
}

/**
 * The internal-chat dot (core §2): the user has unread messages in some chat, as the server
 * counts them (a per-member read cursor), kept live by the members-only chat events.
 */
export function useUnreadChats(enabled: boolean, _pathname?: string): boolean {
  return useChatUnreadFeed(enabled);
}
