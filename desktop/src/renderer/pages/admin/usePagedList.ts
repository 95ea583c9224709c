import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from '../../api';
import { useErrorToast } from '../../ui/useErrorToast';
import { removeById, SEARCH_DEBOUNCE_MS, upsertById } from './scroll';

interface Page<T> {
  items: T[];
  hasMore: boolean;
}

/**
 * A searchable, infinitely scrolled list (admin §9): the search waits 500 ms, a new search starts
 * again at page 1, `loadMore` asks for the next page. `upsert`/`remove` apply live events.
 */
export function usePagedList<T extends { id: number }>(
  path: string,
  pick: (answer: unknown) => Page<T>,
) {
  const showError = useErrorToast();
  const [search, setSearch] = useState('');
  const [term, setTerm] = useState('');
  const [page, setPage] = useState(1);
  const [items, setItems] = useState<T[]>([]);
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(true);
  const pickRef = useRef(pick);
  pickRef.current = pick;

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
        const next = pickRef.current(answer);
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
  }, [path, term, page, showError]);

  const loadMore = useCallback(() => {
    if (!loading && hasMore) setPage((p) => p + 1);
  }, [loading, hasMore]);

  return {
    items,
    loading,
    hasMore,
    search,
    setSearch,
    loadMore,
    upsert: useCallback((item: T) => setItems((list) => upsertById(list, item)), []),
    remove: useCallback((id: number) => setItems((list) => removeById(list, id)), []),
  };
}
