import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from '../../api';
import { useResourceList } from '../../kit';
import { useCompanyEvent } from '../../session/useRealtime';
import type { Connection, SessionUpdate } from './types';

/** The company's connections, kept live by the whatsapp and whatsappSession events. */
export function useConnections() {
  const [pairingCodes, setPairingCodes] = useState<Record<number, string>>({});
  // The newest session state per connection. A connection update can arrive after a session
  // update it predates (they come from different processes); it must not undo the newer state.
  const sessions = useRef(new Map<number, Omit<SessionUpdate, 'pairingCode'>>());
  const withSession = useCallback((connection: Connection): Connection => {
    const live = sessions.current.get(connection.id);
    if (!live) return connection;
    const older =
      live.updatedAt !== undefined &&
      Date.parse(live.updatedAt) < Date.parse(String(connection.updatedAt));
    if (older) return connection;
    return { ...connection, ...live } as Connection;
  }, []);
  const list = useResourceList<Connection>({
    path: '/whatsapp',
    query: { session: 0 },
    event: 'whatsapp',
    item: 'whatsapp',
    id: 'whatsappId',
    adopt: withSession,
  });

  useCompanyEvent('whatsappSession', (payload) => {
    const { session } = payload as { action: string; session?: SessionUpdate };
    if (!session) return;
    const { pairingCode, ...live } = session;
    sessions.current.set(live.id, live);
    list.patch((rows) =>
      rows.map((c) => (c.id === live.id ? ({ ...c, ...live } as Connection) : c)),
    );
    setPairingCodes((codes) => {
      if (pairingCode) return { ...codes, [live.id]: pairingCode };
      if (live.status === 'PAIRING' || !(live.id in codes)) return codes;
      const { [live.id]: _gone, ...rest } = codes;
      return rest;
    });
  });

  return { list, pairingCodes };
}

/** Whether the server offers the simulator provider (`GET /whatsapp/providers`). */
export function useSimulatorAvailable(enabled: boolean): boolean {
  const [available, setAvailable] = useState(false);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    api.get<{ providers: string[] }>('/whatsapp/providers').then(
      (answer) => live && setAvailable(answer.providers.includes('simulator')),
      () => live && setAvailable(false),
    );
    return () => {
      live = false;
    };
  }, [enabled]);
  return available;
}
