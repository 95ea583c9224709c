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
const PATHS = {
  queues: '/queue',
  users: '/users/list',
  connections: '/whatsapp',
  tags: '/tags/list',
} as const;

/** The lists a dialog offers (queues, users, connections, tags), loaded when it opens. */
export function useLookups(open: boolean, wanted: readonly (keyof Lookups)[]): Lookups {
  const showError = useErrorToast();
  const [lookups, setLookups] = useState<Lookups>(EMPTY);
  const key = wanted.join(',');

  useEffect(() => {
    if (!open) return;
    let cancelled = false;
    const names = key.split(',') as (keyof Lookups)[];
    Promise.all(
      names.map((name) =>
        api.get<unknown[]>(PATHS[name], name === 'connections' ? { query: { session: 0 } } : {}),
      ),
    )
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
