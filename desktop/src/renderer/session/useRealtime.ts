import { ERRORS, type CompanyEventName, type PlatformEventName } from '@atende/shared';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { create } from 'zustand';

import { getPlatform } from '../platform';
import { toast } from '../ui/toast';
import { currentLanguage } from '../ui/useErrorToast';
import { RealtimeSession } from './realtime';
import { api, useSession } from './store';

/** After the auth event the page reloads 1 s later (core §4). */
export const SIGNED_IN_ELSEWHERE_RELOAD_MS = 1_000;

/**
 * `resyncEpoch` grows when the lists must reload from scratch (the feed could not catch up).
 * `connectedEpoch` grows each time the socket is (re)connected: what the feed does not carry
 * (internal chats, announcements) reloads on it.
 * `protocolMismatch`: the server refused the socket with ERR_PROTOCOL_VERSION; the shell keeps
 * asking the user to update the app (`ProtocolBanner`) until the page is reloaded.
 */
export const useRealtime = create<{
  session: RealtimeSession | null;
  resyncEpoch: number;
  connectedEpoch: number;
  protocolMismatch: boolean;
}>()(() => ({ session: null, resyncEpoch: 0, connectedEpoch: 0, protocolMismatch: false }));

/** Opens the company socket while signed in; closes it on sign-out. Mounted once, by the shell. */
export function useRealtimeConnection(): void {
  const { t, i18n } = useTranslation();
  const userId = useSession((s) => s.user?.id);
  const companyId = useSession((s) => s.user?.companyId);
  const message = useRef(t('session.otherComputer'));
  message.current = t('session.otherComputer');

  useEffect(() => {
    if (userId === undefined || companyId === undefined) return;
    const session = new RealtimeSession({
      connection: getPlatform().connectRealtime({ getToken: () => useSession.getState().token }),
      companyId,
      userId,
      refresh: () => useSession.getState().refresh(),
      onSignedInElsewhere: () => {
        toast.error(message.current);
        localStorage.clear();
        setTimeout(() => window.location.reload(), SIGNED_IN_ELSEWHERE_RELOAD_MS);
      },
      onSessionEnded: () => useSession.getState().clear(),
      onProtocolMismatch: () => {
        toast.error(ERRORS.ERR_PROTOCOL_VERSION.text[currentLanguage(i18n.language)]);
        useRealtime.setState({ protocolMismatch: true });
      },
      // The raw answer: the shared feed reader checks it (readFeed in shared/src/events).
      fetchChanges: (after, limit) =>
        api.get<unknown>('/sync/changes', { query: { after, limit } }),
      onResync: () => useRealtime.setState((s) => ({ resyncEpoch: s.resyncEpoch + 1 })),
      onConnected: () => useRealtime.setState((s) => ({ connectedEpoch: s.connectedEpoch + 1 })),
    });
    useRealtime.setState({ session });
    return () => {
      useRealtime.setState({ session: null });
      session.close();
    };
  }, [userId, companyId]);
}

/** Subscribes a component to a company event while it is mounted. */
export function useCompanyEvent(
  name: CompanyEventName | undefined,
  handler: (payload: unknown) => void,
) {
  const session = useRealtime((s) => s.session);
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(
    () => (name ? session?.on(name, (payload) => latest.current(payload)) : undefined),
    [session, name],
  );
}

/** Subscribes a component to a platform-wide event (announcements) while it is mounted. */
export function usePlatformEvent(name: PlatformEventName, handler: (payload: unknown) => void) {
  const session = useRealtime((s) => s.session);
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => session?.onPlatform(name, (payload) => latest.current(payload)), [session, name]);
}

/** Joins a room (joinTickets, joinChatBox, …) while mounted; re-joined after reconnects. */
export function useRoom(event: string, arg?: string | number) {
  const session = useRealtime((s) => s.session);
  useEffect(() => {
    if (!session) return;
    return arg === undefined ? session.join(event) : session.join(event, String(arg));
  }, [session, event, arg]);
}
