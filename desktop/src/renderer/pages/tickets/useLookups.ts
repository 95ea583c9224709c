import { queueEndpoints, tagEndpoints } from '@atende/shared';
import { useEffect, useState } from 'react';
import { api } from '../../api';
import type { Queue, Tag, WhatsappConnection } from '../../api/types';
import { useErrorToast } from '../../ui/useErrorToast';

export interface UserOption {
  id: number;
  name: string;
  queues?: Queue[];
}

export interface Lookups {
  queues: Queue[];
  users: UserOption[];
  connections: WhatsappConnection[];
  tags: Tag[];
}

const EMPTY: Lookups = { queues: [], users: [], connections: [], tags: [] };
const LOADERS: { [K in keyof Lookups]: () => Promise<Lookups[K]> } = {
  queues: () => api.call(queueEndpoints.listQueues),
  users: () => api.get('/users/list'),
  connections: () => api.get('/whatsapp', { query: { session: 0 } }),
  tags: () => api.call(tagEndpoints.tagList),
};

/** The lists a dialog offers (queues, users, connections, tags), loaded when it opens. */
export function useLookups(open: boolean, wanted: readonly (keyof Lookups)[]): Lookups {
  const showError = useErrorToast();
  const [lookups, setLookups] = useState<Lookups>(EMPTY);
  const key = wanted.join(',');

  useEffect(() => {
    if (!open) return;
    let cancelled = false;
    const names = key.split(',') as (keyof Lookups)[];
    Promise.all(names.map((name): Promise<unknown[]> => LOADERS[name]()))
      .then((lists) => {
        if (cancelled) return;
        const next = { ...EMPTY };
        names.forEach((name, i) => Object.assign(next, { [name]: lists[i] ?? [] }));
        setLookups(next);
      })
      .catch((error: unknown) => !cancelled && showError(error));
    return () => {
      cancelled = true;
    };
  }, [open, key, showError]);

  return lookups;
}
