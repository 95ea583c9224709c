import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from '../../api';
import type { Message } from '../../api/types';
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
      .get<{ messages: Message[]; hasMore: boolean; count: number }>(`/messages/${ticketId}`, {
        query: { pageNumber: page },
      })
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

  useRoom('joinChatBox', live ? ticketId : undefined);
  useCompanyEvent('appMessage', (payload) => {
    const data = payload as { action: string; message?: Message };
    if (!live || !data.message || data.message.ticketId !== ticketId) return;
    if (data.action === 'create' || data.action === 'update') {
      setMessages((current) => mergeMessages(current, [data.message!]));
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
