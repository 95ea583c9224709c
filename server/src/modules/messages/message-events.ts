// What happens to stored messages after the fact: acks, edits, revokes, reactions, and what
// the address book teaches about contacts. Each is idempotent: a replayed event changes nothing.
import type { EntityManager } from 'typeorm';
import type { AppContext } from '../../context.js';
import type {
  ConnectionRef,
  InboxEntry,
  MediaDownloadJob,
  MediaDownloadResult,
} from '../../whatsapp/hooks.js';
import { settleInbox } from '../../whatsapp/inbox.js';
import type {
  AckEvent,
  ContactsEvent,
  EditEvent,
  MessageRef,
  ReactionEvent,
  RevokeEvent,
} from '../../whatsapp/port.js';
import type { Change } from '../changes/index.js';
import { withChanges } from '../changes/index.js';
import { upsertContact } from '../contacts/index.js';
import { loadTicket } from '../tickets/index.js';
import { loadMessage, messageChange } from './messages.queries.js';

const KEY = `"companyId" = $1 AND "whatsappId" = $2 AND wid = $3 AND "fromMe" = $4`;
const keyParams = (c: ConnectionRef, ref: MessageRef) => [
  c.companyId,
  c.whatsappId,
  ref.id,
  ref.fromMe,
];

/**
 * Runs an UPDATE on the referenced message; records the change when a row changed. The session's
 * inbox entry, if any, is settled in the same transaction.
 */
async function updateMessage(
  app: AppContext,
  connection: ConnectionRef,
  sql: (key: string) => string,
  params: unknown[],
  inbox?: InboxEntry,
): Promise<void> {
  await withChanges(app, connection.companyId, async (tx: EntityManager, changes: Change[]) => {
    await settleInbox(tx, inbox);
    const [rows] = (await tx.query(`${sql(KEY)} RETURNING id`, params)) as [
      { id: number }[],
      number,
    ];
    for (const { id } of rows) {
      const message = await loadMessage(tx, connection.companyId, id);
      const ticket = await loadTicket(tx, connection.companyId, message.ticketId);
      changes.push(messageChange(message, ticket, 'update'));
    }
  });
}

/** Acks only move forward (an old receipt arriving late never lowers the ack). */
export function applyAck(
  app: AppContext,
  c: ConnectionRef,
  e: AckEvent,
  inbox?: InboxEntry,
): Promise<void> {
  if (e.failed) {
    return updateMessage(
      app,
      c,
      (key) => `UPDATE messages SET "sendError" = 'ERR_SENDING_WAPP_MSG', "updatedAt" = now()
                 WHERE ${key} AND "sendError" IS NULL`,
      keyParams(c, e.ref),
      inbox,
    );
  }
  return updateMessage(
    app,
    c,
    (key) => `UPDATE messages SET ack = $5, "updatedAt" = now() WHERE ${key} AND ack < $5`,
    [...keyParams(c, e.ref), e.ack],
    inbox,
  );
}

/** An edit keeps the previous text in `previousBodies`. */
export function applyEdit(
  app: AppContext,
  c: ConnectionRef,
  e: EditEvent,
  inbox?: InboxEntry,
): Promise<void> {
  return updateMessage(
    app,
    c,
    (key) => `UPDATE messages SET
         "previousBodies" = "previousBodies" || jsonb_build_array(
           jsonb_build_object('body', body, 'editedAt', now())),
         body = $5, "isEdited" = true, "updatedAt" = now()
       WHERE ${key} AND body <> $5`,
    [...keyParams(c, e.ref), e.body],
    inbox,
  );
}

/** A message deleted for everyone stays stored, marked deleted. */
export function applyRevoke(
  app: AppContext,
  c: ConnectionRef,
  e: RevokeEvent,
  inbox?: InboxEntry,
): Promise<void> {
  return updateMessage(
    app,
    c,
    (key) => `UPDATE messages SET "isDeleted" = true, "updatedAt" = now()
               WHERE ${key} AND NOT "isDeleted"`,
    keyParams(c, e.ref),
    inbox,
  );
}

/** One reaction per person on a message; an empty emoji removes theirs. */
export function applyReaction(
  app: AppContext,
  c: ConnectionRef,
  e: ReactionEvent,
  inbox?: InboxEntry,
): Promise<void> {
  const from = e.fromMe ? 'me' : (e.from.phone ?? e.from.lid ?? 'unknown');
  const entry = JSON.stringify(e.emoji ? [{ from, emoji: e.emoji, fromMe: e.fromMe }] : []);
  return updateMessage(
    app,
    c,
    (key) => `UPDATE messages SET
         reactions = COALESCE((SELECT jsonb_agg(r) FROM jsonb_array_elements(reactions) r
                                WHERE r->>'from' <> $5), '[]'::jsonb) || $6::jsonb,
         "updatedAt" = now()
       WHERE ${key} AND reactions IS DISTINCT FROM
         COALESCE((SELECT jsonb_agg(r) FROM jsonb_array_elements(reactions) r
                    WHERE r->>'from' <> $5), '[]'::jsonb) || $6::jsonb`,
    [...keyParams(c, e.target), from, entry],
    inbox,
  );
}

/** Address-book updates link a LID to a phone (merging contacts) and fill in names. */
export async function applyContacts(
  app: AppContext,
  c: ConnectionRef,
  e: ContactsEvent,
  inbox?: InboxEntry,
): Promise<void> {
  await withChanges(app, c.companyId, async (tx, changes) => {
    await settleInbox(tx, inbox);
    for (const info of e.contacts) {
      await upsertContact(
        tx,
        c.companyId,
        { ...info.identities, name: info.name ?? info.pushName },
        changes,
        { create: false },
      );
    }
  });
}

/** A finished media download fills in the message's `mediaUrl`. */
export async function applyMediaResult(
  app: AppContext,
  job: MediaDownloadJob,
  result: MediaDownloadResult,
): Promise<void> {
  if (!result.ok) return;
  await updateMessage(
    app,
    job,
    (key) => `UPDATE messages SET "mediaUrl" = $5, "updatedAt" = now()
               WHERE ${key} AND "mediaUrl" IS DISTINCT FROM $5`,
    [...keyParams(job, job.ref), result.url],
  );
}
