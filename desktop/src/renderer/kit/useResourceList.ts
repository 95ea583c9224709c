import { COMPANY_EVENTS, type CompanyEventName } from '@atende/shared';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from '../api';
import { useCompanyEvent, useRealtime } from '../session/useRealtime';
import { toast } from '../ui/toast';
import { useErrorToast } from '../ui/useErrorToast';
import { removeById, SEARCH_DEBOUNCE_MS, upsertById } from './scroll';

/**
 * Where a list lives. With `rows`, the route answers pages (`{[rows]: T[], hasMore}`) asked for by
 * `searchParam` and `pageNumber` (admin §9); without, it answers the whole list as an array.
 * `event` is the company event that keeps the list live; `item` and `id` name where its payload
 * carries the row (create, update) and the deleted row's id: by default the event's name and the
 * name with `Id` (`tag` carries `tag` and `tagId`).
 */
export interface ResourceSource<T> {
  path: string;
  rows?: string;
  query?: Record<string, string | number>;
  /** Left out for a list kept live otherwise (announcements: a platform event). */
  event?: CompanyEventName;
  item?: string;
  id?: string;
  /** Applied to each row that arrives (the answer, an event, a save). */
  adopt?(row: T): T;
}

export interface ResourceList<T extends { id: number }> {
  items: T[];
  loading: boolean;
  hasMore: boolean;
  /** Whether the route takes a search (paged routes do). */
  searchable: boolean;
  search: string;
  setSearch(value: string): void;
  loadMore(): void;
  /** Asks for page 1 again (after an import, say). */
  reload(): void;
  upsert(row: T): void;
  remove(id: number): void;
  /** Changes rows in place (a second event that patches rows, such as a session update). */
  patch(change: (rows: T[]) => T[]): void;
  /** Deletes a row on the server, then from the list, and shows `done`. */
  destroy(id: number, done: string): Promise<void>;
}

const identity = <T>(row: T) => row;

/**
 * A searchable, infinitely scrolled list kept live by its company event (admin §4, §9; secondary
 * §4): the search waits 500 ms and starts again at page 1, `loadMore` asks for the next page, the
 * event's create and update upsert a row and its delete removes one. A payload that does not
 * match the event's schema in `@atende/shared` is not applied. When the socket could not catch
 * up (`resyncEpoch`), the list loads again from page 1.
 */
export function useResourceList<T extends { id: number }>(
  source: ResourceSource<T>,
): ResourceList<T> {
  const showError = useErrorToast();
  const { path, rows, event, item = event ?? '', id = `${event}Id` } = source;
  // Read when rows arrive: a new function each render must not reload the list.
  const adopt = useRef(source.adopt ?? identity);
  adopt.current = source.adopt ?? identity;
  const query = JSON.stringify(source.query ?? {});
  const epoch = useRealtime((s) => s.resyncEpoch);
  const [search, setSearch] = useState('');
  const [term, setTerm] = useState('');
  const [page, setPage] = useState(1);
  const [reloads, setReloads] = useState(0);
  const [items, setItems] = useState<T[]>([]);
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(true);

  useEffect(() => {
    const timer = setTimeout(() => {
      setTerm(search.trim());
      setPage(1);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [search]);

  useEffect(() => {
    let live = true;
    setLoading(true);
    const paging = rows ? { searchParam: term, pageNumber: page } : {};
    api
      .get<unknown>(path, { query: { ...(JSON.parse(query) as object), ...paging } })
      .then((answer) => {
        if (!live) return;
        const body = answer as Record<string, unknown>;
        const next = ((rows ? body[rows] : answer) ?? []) as T[];
        setItems((prev) => {
          if (page === 1) return next.map(adopt.current);
          const seen = new Set(prev.map((x) => x.id));
          return [...prev, ...next.filter((x) => !seen.has(x.id)).map(adopt.current)];
        });
        setHasMore(rows !== undefined && body.hasMore === true);
      })
      .catch((error: unknown) => live && showError(error))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [path, rows, query, term, page, reloads, epoch, showError]);

  const loadMore = useCallback(() => {
    if (!loading && hasMore) setPage((p) => p + 1);
  }, [loading, hasMore]);
  const reload = useCallback(() => {
    setPage(1);
    setReloads((n) => n + 1);
  }, []);

  const upsert = useCallback(
    (row: T) => setItems((list) => upsertById(list, adopt.current(row))),
    [],
  );
  const remove = useCallback((rowId: number) => setItems((list) => removeById(list, rowId)), []);
  const patch = useCallback((change: (list: T[]) => T[]) => setItems(change), []);

  useCompanyEvent(event, (payload) => {
    if (!event) return;
    const parsed = COMPANY_EVENTS[event].safeParse(payload);
    if (!parsed.success) return;
    const data = parsed.data as Record<string, unknown>;
    const row = data[item] as T | undefined;
    const rowId = data[id];
    if ((data.action === 'create' || data.action === 'update') && row) upsert(row);
    if (data.action === 'delete' && typeof rowId === 'number') remove(rowId);
  });

  const destroy = useCallback(
    async (rowId: number, done: string) => {
      try {
        await api.delete(`${path.replace(/\/$/, '')}/${rowId}`);
        remove(rowId);
        toast.success(done);
      } catch (error) {
        showError(error);
      }
    },
    [path, remove, showError],
  );

  return {
    items,
    loading,
    hasMore,
    searchable: rows !== undefined,
    search,
    setSearch,
    loadMore,
    reload,
    upsert,
    remove,
    patch,
    destroy,
  };
}
