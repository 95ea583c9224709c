import type { CompanyEventName } from '@atende/shared';
import { useCallback, useEffect, useState } from 'react';
import { api } from '../api';
import { useCompanyEvent } from '../session/useRealtime';
import { toast } from '../ui/toast';
import { useErrorToast } from '../ui/useErrorToast';
import { removeById, SEARCH_DEBOUNCE_MS, upsertById } from './scroll';

/**
 * Where the list lives: `rows` names the array in the server's page (`{users, hasMore}`), `event`
 * the company event that keeps it live, and `item`/`id` where that event carries the row and id.
 */
export interface ListSource {
  rows: string;
  event: CompanyEventName;
  item: string;
  id: string;
}

/**
 * A searchable, infinitely scrolled list (admin §9): the search waits 500 ms, a new search starts
 * again at page 1, `loadMore` asks for the next page. The company event's create and update
 * upsert a row, its delete removes one (admin §4); `destroy` deletes on the server.
 */
export function usePagedList<T extends { id: number }>(path: string, source: ListSource) {
  const showError = useErrorToast();
  const [search, setSearch] = useState('');
  const [term, setTerm] = useState('');
  const [page, setPage] = useState(1);
  const [items, setItems] = useState<T[]>([]);
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(true);

  useEffect(() => {
    const timer = setTimeout(() => {
      setTerm(search);
      setPage(1);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [search]);

  useEffect(() => {
    let live = true;
    setLoading(true);
    api
      .get(path, { query: { searchParam: term, pageNumber: page } })
      .then((answer) => {
        if (!live) return;
        const body = answer as Record<string, unknown>;
        const next = { items: (body[source.rows] ?? []) as T[], hasMore: body.hasMore === true };
        setItems((prev) => {
          if (page === 1) return next.items;
          const seen = new Set(prev.map((x) => x.id));
          return [...prev, ...next.items.filter((x) => !seen.has(x.id))];
        });
        setHasMore(next.hasMore);
      })
      .catch((error: unknown) => live && showError(error))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [path, source.rows, term, page, showError]);

  const loadMore = useCallback(() => {
    if (!loading && hasMore) setPage((p) => p + 1);
  }, [loading, hasMore]);

  const upsert = useCallback((item: T) => setItems((list) => upsertById(list, item)), []);
  const remove = useCallback((id: number) => setItems((list) => removeById(list, id)), []);

  useCompanyEvent(source.event, (payload) => {
    const event = payload as Record<string, unknown>;
    const item = event[source.item] as T | undefined;
    const id = event[source.id];
    if ((event.action === 'create' || event.action === 'update') && item) upsert(item);
    if (event.action === 'delete' && typeof id === 'number') remove(id);
  });

  /** Deletes a row on the server, then from the list, with the page's success text. */
  const destroy = useCallback(
    async (id: number, done: string) => {
      try {
        await api.delete(`${path.replace(/\/$/, '')}/${id}`);
        remove(id);
        toast.success(done);
      } catch (error) {
        showError(error);
      }
    },
    [path, remove, showError],
  );

  return { items, loading, hasMore, search, setSearch, loadMore, upsert, remove, destroy };
}
