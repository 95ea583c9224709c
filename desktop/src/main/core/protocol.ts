import { ENTITY_OF_EVENT, type FeedEntry } from '@atende/shared';
import { z } from 'zod';
import { ENTITIES, type Change, type Entity, type EntityData, type Op } from './types.js';

/**
 * Turns the change feed's rows and socket events into cache operations. The feed itself is read
 * by the shared reader (`readFeed` in shared/src/events), which hands over rows
 * `{seq, entity, entityId, action, payload}` where `payload` is what the socket event carried.
 * Entities the cache does not keep (notes) mean no operations; the cursor still moves past them.
 */

const entityData = z.looseObject({ id: z.number().int() });
const seq = z.number().int().nonnegative();

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
  if (kind === 'chat') return chatOps(action, record);
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

/** An internal chat's change: the chat as it is now, and on `new-message` the message. */
function chatOps(action: string, record: Record<string, unknown>): Op[] {
  const ops: Op[] = [];
  const chat = asEntityData(record.chat);
  if (chat) ops.push({ entity: 'chat', op: 'upsert', data: chat });
  const message = action === 'new-message' ? asEntityData(record.newMessage) : null;
  if (message) ops.push({ entity: 'chatMessage', op: 'upsert', data: message });
  return ops;
}

/** The cache operations of one feed row. */
export const opsOfEntry = (entry: FeedEntry): Op[] =>
  opsOf(entry.entity, entry.action, entry.entityId, entry.payload);

const socketPayload = z.looseObject({ seq, action: z.string().optional() });

/**
 * The id a delete or patch event names: `ticketId`, `contactId`, `tagId`, `messageId`, `chatId`
 * or `id`.
 */
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
