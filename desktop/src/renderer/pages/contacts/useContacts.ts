import { contactEndpoints } from '@atende/shared';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from '../../api';
import type { Contact } from '../../api/types';
import { useCompanyEvent } from '../../session/useRealtime';
import { useErrorToast } from '../../ui/useErrorToast';

/** core §9: searches are debounced 500 ms. */
export const CONTACT_SEARCH_DEBOUNCE_MS = 500;

/** GET /contacts paged by pageNumber, searched, and kept live by contact events. */
export function useContacts(search: string) {
  const showError = useErrorToast();
  const [rows, setRows] = useState<Contact[]>([]);
  const [page, setPage] = useState(1);
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(false);
  const [searchParam, setSearchParam] = useState('');
  const [reloads, setReloads] = useState(0);
  const busy = useRef(false);

  useEffect(() => {
    const timer = setTimeout(() => {
      setSearchParam(search.trim());
      setPage(1);
    }, CONTACT_SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [search]);

  useEffect(() => {
    let cancelled = false;
    busy.current = true;
    setLoading(true);
    api
      .call(contactEndpoints.listContacts, {
        query: { searchParam: searchParam || undefined, pageNumber: page },
      })
      .then((answer) => {
        if (cancelled) return;
        setRows((current) => {
          if (page === 1) return answer.contacts;
          const seen = new Set(current.map((c) => c.id));
          return [...current, ...answer.contacts.filter((c) => !seen.has(c.id))];
        });
        setHasMore(answer.hasMore);
      })
      .catch((error: unknown) => !cancelled && showError(error))
      .finally(() => {
        busy.current = false;
        if (!cancelled) setLoading(false);
      });
    return () => {
      cancelled = true;
    };
  }, [searchParam, page, reloads, showError]);

  useCompanyEvent('contact', (payload) => {
    const data = payload as { action: string; contact?: Contact; contactId?: number };
    if (data.action === 'delete' && data.contactId !== undefined) {
      setRows((list) => list.filter((c) => c.id !== data.contactId));
    } else if (data.contact) {
      const contact = data.contact;
      setRows((list) =>
        list.some((c) => c.id === contact.id)
          ? list.map((c) => (c.id === contact.id ? { ...c, ...contact } : c))
          : [contact, ...list],
      );
    }
  });

  const loadMore = useCallback(() => {
    if (hasMore && !busy.current) {
      busy.current = true;
      setPage((p) => p + 1);
    }
  }, [hasMore]);

  const reload = useCallback(() => {
    setPage(1);
    setReloads((n) => n + 1);
  }, []);

  return { rows, loading, hasMore, loadMore, reload };
}
