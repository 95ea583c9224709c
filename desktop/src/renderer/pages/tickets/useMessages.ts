import { messageEndpoints } from '@atende/shared';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from '../../api';
import type { Message, Ticket } from '../../api/types';
import { useCompanyEvent, useRoom } from '../../session/useRealtime';
import { useErrorToast } from '../../ui/useErrorToast';
import { mergeMessages } from './messages';

/**
 * The thread of a ticket: GET /messages/{ticketId}?pageNumber, newest page first (each page's
 * messages run oldest first, as Whaticket answers; merging keeps the thread in time order), live.
 */
export function useMessages(ticketId: number | undefined, live = true) {
  const showError = useErrorToast();
  const [messages, setMessages] = useState<Message[]>([]);
  const [page, setPage] = useState(1);
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(false);
  const loadingRef = useRef(false);

  useEffect(() => {
    setMessages([]);
    setPage(1);
    setHasMore(false);
  }, [ticketId]);

  useEffect(() => {
    if (ticketId === undefined) return;
    let cancelled = false;
    loadingRef.current = true;
    setLoading(true);
    api
      .call(messageEndpoints.listMessages, { params: { ticketId }, query: { pageNumber: page } })
      .then((answer) => {
        if (cancelled) return;
        setMessages((current) => mergeMessages(current, answer.messages));
        setHasMore(answer.hasMore);
      })
      .catch((error: unknown) => !cancelled && showError(error))
      .finally(() => {
        loadingRef.current = false;
        if (!cancelled) setLoading(false);
      });
    return () => {
      cancelled = true;
    };
  }, [ticketId, page, showError]);

  const markRead = useMarkRead(live ? ticketId : undefined);
  useRoom('joinChatBox', live ? ticketId : undefined);
  useCompanyEvent('appMessage', (payload) => {
    const data = payload as { action: string; message?: Message; ticket?: Ticket };
    if (!live || !data.message || data.message.ticketId !== ticketId) return;
    if (data.action === 'create' || data.action === 'update') {
      setMessages((current) => mergeMessages(current, [data.message!]));
    }
    // A customer's message while the thread is open: read it (no call when nothing is unread).
    if (
      data.action === 'create' &&
      !data.message.fromMe &&
      data.ticket?.status !== 'closed' &&
      (data.ticket?.unreadMessages ?? 1) > 0
    ) {
      markRead();
    }
  });

  const loadOlder = useCallback(() => {
    if (hasMore && !loadingRef.current) {
      loadingRef.current = true;
      setPage((p) => p + 1);
    }
  }, [hasMore]);

  return { messages, loading, hasMore, loadOlder, setMessages };
}

/** Calls after a burst of customer messages are folded into one mark-read. */
const MARK_READ_DELAY_MS = 500;

/**
 * PUT /messages/{ticketId} while the ticket stays open (opening it is read by its first page's
 * GET): at most one call per burst, and while the window is hidden the call waits until it is
 * shown again (the agent has not seen the message yet).
 */
function useMarkRead(ticketId: number | undefined): () => void {
  const pending = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const flush = useCallback(() => {
    if (ticketId === undefined || !pending.current) return;
    if (typeof document !== 'undefined' && document.hidden) return;
    pending.current = false;
    api.call(messageEndpoints.markRead, { params: { ticketId } }).catch(() => {
      // A ticket that just left the agent (transferred, closed) has nothing to read.
    });
  }, [ticketId]);

  useEffect(() => {
    pending.current = false;
    const onVisible = () => flush();
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      document.removeEventListener('visibilitychange', onVisible);
      clearTimeout(timer.current);
    };
  }, [flush]);

  return useCallback(() => {
    if (ticketId === undefined) return;
    pending.current = true;
    clearTimeout(timer.current);
    timer.current = setTimeout(flush, MARK_READ_DELAY_MS);
  }, [ticketId, flush]);
}
