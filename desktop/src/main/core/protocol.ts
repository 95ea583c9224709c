import { ENTITY_OF_EVENT, feedPage, feedReset } from '@atende/shared';
import { z } from 'zod';
import {
  ENTITIES,
  type Change,
  type Entity,
  type EntityData,
  type FeedAnswer,
  type Op,
} from './types.js';

/**
 * Reads the server's change feed and socket events into cache operations. The feed's rows are
 * `{seq, entity, entityId, action, payload}` where `payload` is what the socket event carried;
 * the compact `{seq, entity, op, id, data}` form is read too. Entities the cache does not keep
 * (notes) become a change without operations, so the cursor still moves past them.
 */

const entityData = z.looseObject({ id: z.number().int() });
const seq = z.number().int().nonnegative();

const feedRow = z.union([
  z.object({
    seq,
    entity: z.string(),
    entityId: z.number().int(),
    action: z.string(),
    payload: z.unknown(),
  }),
  z.object({
    seq,
    entity: z.string(),
    op: z.enum(['upsert', 'delete']),
    id: z.number().int(),
    data: z.unknown().optional(),
  }),
]);

// The shared answer (`feedAnswer` in shared/src/events), with the compact row form read too.
const feedAnswer = z.union([
  feedReset.partial({ head: true }),
  feedPage.extend({ changes: z.array(feedRow) }),
]);

/** The entities the cache keeps (notes are not kept). */
const KEPT = new Set<string>(ENTITIES);

/** Socket event names (core §7) and the cached entity they carry (the shared map). */
export const EVENT_ENTITY: Readonly<Record<string, Entity>> = Object.fromEntries(
  Object.entries(ENTITY_OF_EVENT).filter(([, entity]) => KEPT.has(entity)),
) as Record<string, Entity>;

function asEntityData(value: unknown): EntityData | null {
  const parsed = entityData.safeParse(value);
  return parsed.success ? (parsed.data as EntityData) : null;
}

/** Events that change known fields of an entity without carrying it. */
const PATCHES: Readonly<Record<string, Record<string, unknown>>> = {
  updateUnread: { unreadMessages: 0 },
};

/** The cache operations one change means; a message brings its ticket as it is now. */
export function opsOf(entity: string, action: string, id: number, payload: unknown): Op[] {
  if (!KEPT.has(entity)) return [];
  const kind = entity as Entity;
  if (action === 'delete') return [{ entity: kind, op: 'delete', id }];
  const patch = PATCHES[action];
  if (patch) return [{ entity: kind, op: 'patch', id, fields: patch }];
  const record = (payload ?? {}) as Record<string, unknown>;
  const data = asEntityData(record[kind]) ?? asEntityData(payload);
  if (!data) return [];
  const ops: Op[] = [];
  if (kind === 'message') {
    const ticket = asEntityData(record.ticket);
    if (ticket) ops.push({ entity: 'ticket', op: 'upsert', data: ticket });
  }
  ops.push({ entity: kind, op: 'upsert', data });
  return ops;
}

export function parseFeedAnswer(raw: unknown): FeedAnswer {
  const answer = feedAnswer.parse(raw);
  if ('resetRequired' in answer) return { resetRequired: true };
  const changes: Change[] = answer.changes.map((row) =>
    'op' in row
      ? { seq: row.seq, ops: opsOf(row.entity, row.op, row.id, row.data) }
      : { seq: row.seq, ops: opsOf(row.entity, row.action, row.entityId, row.payload) },
  );
  return { changes, hasMore: answer.hasMore, last: answer.last };
}

const socketPayload = z.looseObject({ seq, action: z.string().optional() });

/** The id a delete or patch event names: `ticketId`, `contactId`, `tagId`, `messageId` or `id`. */
function deletedId(entity: Entity, record: Record<string, unknown>): number | null {
  for (const key of [`${entity}Id`, 'id']) {
    const value = record[key];
    if (typeof value === 'number' && Number.isInteger(value)) return value;
  }
  return null;
}

/** A socket event as a numbered change, or null when it carries no feed number. */
export function changeFromEvent(name: string, payload: unknown): Change | null {
  const entity = EVENT_ENTITY[name];
  const parsed = socketPayload.safeParse(payload);
  if (!entity || !parsed.success) return null;
  const record = parsed.data as Record<string, unknown>;
  const action = parsed.data.action ?? 'update';
  if (action === 'delete' || PATCHES[action]) {
    const id = deletedId(entity, record);
    return { seq: parsed.data.seq, ops: id === null ? [] : opsOf(entity, action, id, record) };
  }
  return { seq: parsed.data.seq, ops: opsOf(entity, action, 0, record) };
}
