import {
  ticketEndpoints,
  type TicketListFilter,
  type TicketStatus,
  type TicketViewer,
} from '@atende/shared';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { api } from '../../api';
import type { Ticket } from '../../api/types';
import { useSession } from '../../session/store';
import { useCompanyEvent, useRealtime, useRoom } from '../../session/useRealtime';
import { useErrorToast } from '../../ui/useErrorToast';
import {
  appendPage,
  applyNewMessage,
  applyTicketUpdate,
  removeTicket,
  resetUnread,
} from './ticketLists';

/** core §9: list loads are debounced and delayed 500 ms. */
export const LIST_LOAD_DELAY_MS = 500;

export interface TicketListParams {
  status?: TicketStatus;
  searchParam?: string;
  showAll: boolean;
  queueIds: number[];
  tags?: number[];
  users?: number[];
}

export function useViewer(): TicketViewer | null {
  const user = useSession((s) => s.user);
  return useMemo(
    () =>
      user
        ? {
            id: user.id,
            profile: user.profile,
            queueIds: user.queues.map((q) => q.id),
            allTicket: user.allTicket,
          }
        : null,
    [user],
  );
}

/** One paged ticket list (GET /tickets), kept live by the company's ticket and message events. */
export function useTicketList(params: TicketListParams) {
  const viewer = useViewer();
  const showError = useErrorToast();
  const [tickets, setTickets] = useState<Ticket[]>([]);
  const [page, setPage] = useState(1);
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(true);
  // A full resync (the change feed could not catch up) reloads from the first page.
  const epoch = useRealtime((s) => s.resyncEpoch);
  const key = JSON.stringify(params);
  const loadingRef = useRef(false);

  useEffect(() => {
    setTickets([]);
    setPage(1);
  }, [key, epoch]);

  useEffect(() => {
    const { status, searchParam, showAll, queueIds, tags, users } = JSON.parse(
      key,
    ) as TicketListParams;
    setLoading(true);
    loadingRef.current = true;
    let cancelled = false;
    const timer = setTimeout(() => {
      api
        .call(ticketEndpoints.listTickets, {
          query: {
            searchParam: searchParam || undefined,
            pageNumber: page,
            status,
            showAll: showAll ? 'true' : 'false',
            queueIds: JSON.stringify(queueIds),
            tags: tags?.length ? JSON.stringify(tags) : undefined,
            users: users?.length ? JSON.stringify(users) : undefined,
            withUnreadMessages: 'false',
          },
        })
        .then((answer) => {
          if (cancelled) return;
          setTickets((list) => (page === 1 ? answer.tickets : appendPage(list, answer.tickets)));
          setHasMore(answer.hasMore);
        })
        .catch((error: unknown) => !cancelled && showError(error))
        .finally(() => {
          if (cancelled) return;
          loadingRef.current = false;
          setLoading(false);
        });
    }, LIST_LOAD_DELAY_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [key, page, epoch, showError]);

  const filter: TicketListFilter | null = useMemo(() => {
    const p = JSON.parse(key) as TicketListParams;
    return p.status ? { status: p.status, showAll: p.showAll, queueIds: p.queueIds } : null;
  }, [key]);

  useRoom('joinTickets', params.status);

  useCompanyEvent('ticket', (payload) => {
    const data = payload as { action: string; ticket?: Ticket; ticketId?: number };
    if (data.action === 'updateUnread' && data.ticketId !== undefined) {
      setTickets((list) => resetUnread(list, data.ticketId!));
    } else if (data.action === 'delete' && data.ticketId !== undefined) {
      setTickets((list) => removeTicket(list, data.ticketId!));
    } else if (data.action === 'update' && data.ticket && filter && viewer) {
      setTickets((list) => applyTicketUpdate(list, data.ticket!, filter, viewer));
    }
  });

  useCompanyEvent('appMessage', (payload) => {
    const data = payload as { action: string; ticket?: Ticket };
    if (data.action === 'create' && data.ticket && filter && viewer) {
      setTickets((list) => applyNewMessage(list, data.ticket!, filter, viewer));
    }
  });

  const loadMore = useCallback(() => {
    if (hasMore && !loadingRef.current) {
      loadingRef.current = true;
      setPage((p) => p + 1);
    }
  }, [hasMore]);

  return { tickets, loading, hasMore, loadMore };
}
