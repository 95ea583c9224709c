import type { ErrorCode, Reference, ReferenceKind } from '@atende/shared';
import type { DataSource, EntityManager } from 'typeorm';
import { AppError } from './errors.js';

/**
 * Where each kind of referenced id lives and what a missing one answers. `table: null` is a
 * kind this version has no rows for yet (prompts, integrations): every id of it is not found.
 */
export const REFERENCE_TABLES: Record<
  ReferenceKind,
  { table: string | null; notFound: ErrorCode }
> = {
  whatsapp: { table: 'whatsapps', notFound: 'ERR_NO_WAPP_FOUND' },
  queue: { table: 'queues', notFound: 'ERR_NO_QUEUE_FOUND' },
  user: { table: 'users', notFound: 'ERR_NO_USER_FOUND' },
  tag: { table: 'tags', notFound: 'ERR_NO_TAG_FOUND' },
  contact: { table: 'contacts', notFound: 'ERR_NO_CONTACT_FOUND' },
  ticket: { table: 'tickets', notFound: 'ERR_NO_TICKET_FOUND' },
  message: { table: 'messages', notFound: 'ERR_NO_MESSAGE_FOUND' },
  queueOption: { table: 'queue_options', notFound: 'ERR_NO_QUEUE_OPTION_FOUND' },
  quickMessage: { table: 'quick_messages', notFound: 'ERR_NO_QUICK_MESSAGE_FOUND' },
  contactList: { table: 'contact_lists', notFound: 'ERR_NO_CONTACT_LIST_FOUND' },
  integration: { table: 'queue_integrations', notFound: 'ERR_NO_INTEGRATION_FOUND' },
  prompt: { table: 'prompts', notFound: 'ERR_NO_PROMPT_FOUND' },
};

/** The ids of each kind, without repeats, in the order the request named them. */
function byKind(references: Reference[]): Map<ReferenceKind, number[]> {
  const kinds = new Map<ReferenceKind, Set<number>>();
  for (const { kind, id } of references) {
    const ids = kinds.get(kind) ?? new Set<number>();
    ids.add(id);
    kinds.set(kind, ids);
  }
  return new Map([...kinds].map(([kind, ids]) => [kind, [...ids]]));
}

/**
 * Throws the kind's not-found error unless every referenced id is a row of `companyId`. A row of
 * another company and a row that does not exist answer the same 404, so ids cannot be probed.
 * One query for all kinds.
 */
export async function assertReferencesOwned(
  db: DataSource | EntityManager,
  companyId: number,
  references: Reference[],
): Promise<void> {
  if (references.length === 0) return;
  const kinds = byKind(references);
  const parts: string[] = [];
  const params: unknown[] = [companyId];
  for (const [kind, ids] of kinds) {
    const { table, notFound } = REFERENCE_TABLES[kind];
    if (table === null) throw new AppError(notFound);
    params.push(ids);
    parts.push(
      `SELECT '${kind}' AS kind, count(*)::int AS found FROM ${table}
        WHERE "companyId" = $1 AND id = ANY($${params.length}::int[])`,
    );
  }
  const rows = (await db.query(parts.join(' UNION ALL '), params)) as {
    kind: ReferenceKind;
    found: number;
  }[];
  for (const { kind, found } of rows) {
    if (found !== kinds.get(kind)!.length) throw new AppError(REFERENCE_TABLES[kind].notFound);
  }
}
