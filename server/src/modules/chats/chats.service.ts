// Internal chat: chats of one company, their members (each with a read cursor) and messages.
// Every query carries "companyId" and the caller's membership; a non-member finds nothing (404).
import {
  CHAT_MESSAGES_PAGE_SIZE,
  CHATS_PAGE_SIZE,
  type ChatAnswer,
  type CompanyEventPayload,
  type InternalChatMessageAnswer,
} from '@atende/shared';
import type { DataSource, EntityManager } from 'typeorm';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { withChanges, type ChangeList } from '../changes/index.js';

type Db = DataSource | EntityManager;

/**
 * The chat rows as answered, members with their unread counts: the messages after the member's
 * read cursor that someone else sent. Counted from the rows, never stored, so concurrent senders
 * cannot lose an increment.
 */
const CHAT_VIEW_SQL = `
  SELECT c.id, c.uuid::text AS uuid, c.title, c."ownerId", c."lastMessage", c."createdAt",
         c."updatedAt",
         COALESCE(json_agg(json_build_object(
           'chatId', cu."chatId", 'userId', cu."userId",
           'unreads', (SELECT count(*)::int FROM chat_messages m
                        WHERE m."chatId" = cu."chatId" AND m.id > cu."lastReadMessageId"
                          AND m."senderId" IS DISTINCT FROM cu."userId"),
           'user', json_build_object('id', u.id, 'name', u.name))
           ORDER BY u.name, u.id) FILTER (WHERE cu.id IS NOT NULL), '[]') AS users
    FROM chats c
    LEFT JOIN chat_users cu ON cu."chatId" = c.id
    LEFT JOIN users u ON u.id = cu."userId"
   WHERE c."companyId" = $1 AND c.id = ANY($2::int[])
   GROUP BY c.id`;

export async function chatViews(db: Db, companyId: number, ids: number[]): Promise<ChatAnswer[]> {
  if (!ids.length) return [];
  const rows = (await db.query(CHAT_VIEW_SQL, [companyId, ids])) as ChatAnswer[];
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

async function chatView(db: Db, companyId: number, id: number): Promise<ChatAnswer> {
  const [view] = await chatViews(db, companyId, [id]);
  if (!view) throw new AppError('ERR_NO_CHAT_FOUND');
  return view;
}

/** The chat (by id or uuid) if the user is one of its members; else ERR_NO_CHAT_FOUND. */
export async function memberChat(
  db: Db,
  companyId: number,
  userId: number,
  idOrUuid: number | string,
): Promise<{ id: number; ownerId: number | null }> {
  const byUuid = typeof idOrUuid === 'string';
  const [row] = (await db.query(
    `SELECT c.id, c."ownerId" FROM chats c
       JOIN chat_users cu ON cu."chatId" = c.id AND cu."userId" = $2
      WHERE c."companyId" = $1 AND ${byUuid ? 'c.uuid = $3::uuid' : 'c.id = $3'}`,
    [companyId, userId, idOrUuid],
  )) as { id: number; ownerId: number | null }[];
  if (!row) throw new AppError('ERR_NO_CHAT_FOUND');
  return row;
}

/** A chat the user owns (members who are not the owner get ERR_CHAT_NOT_OWNER). */
async function ownedChat(db: Db, companyId: number, userId: number, id: number) {
  const chat = await memberChat(db, companyId, userId, id);
  if (chat.ownerId !== userId) throw new AppError('ERR_CHAT_NOT_OWNER');
  return chat;
}

async function memberIds(db: Db, companyId: number, chatId: number): Promise<number[]> {
  const rows = (await db.query(
    `SELECT "userId" FROM chat_users WHERE "companyId" = $1 AND "chatId" = $2`,
    [companyId, chatId],
  )) as { userId: number }[];
  return rows.map((r) => r.userId);
}

/**
 * A chat change for the members only: numbered in the company's change feed with their ids, so
 * `GET /sync/changes` hands it to them alone and its socket event goes to their own rooms
 * (never the company room). Pushed inside the writer's transaction (`withChanges`).
 */
function toMembers(
  changes: ChangeList,
  chatId: number,
  members: number[],
  payload: CompanyEventPayload<'chat'>,
): void {
  if (!members.length) return;
  changes.push({
    entity: 'chat',
    entityId: chatId,
    action: payload.action,
    payload,
    userIds: [...new Set(members)],
  });
}

export async function listChats(
  db: Db,
  companyId: number,
  userId: number,
  pageNumber: number,
  search: string,
) {
  const params: unknown[] = [companyId, userId];
  let where = '';
  if (search) {
    params.push(`%${search}%`);
    where = `AND c.title ILIKE $${params.length}`;
  }
  const rows = (await db.query(
    `SELECT c.id, count(*) OVER ()::int AS total FROM chats c
       JOIN chat_users cu ON cu."chatId" = c.id AND cu."userId" = $2
      WHERE c."companyId" = $1 ${where}
      ORDER BY c."updatedAt" DESC, c.id DESC
      LIMIT ${CHATS_PAGE_SIZE} OFFSET ${(pageNumber - 1) * CHATS_PAGE_SIZE}`,
    params,
  )) as { id: number; total: number }[];
  const count = rows[0]?.total ?? 0;
  return {
    records: await chatViews(
      db,
      companyId,
      rows.map((r) => r.id),
    ),
    count,
    hasMore: count > pageNumber * CHATS_PAGE_SIZE,
  };
}

export async function showChat(
  db: Db,
  companyId: number,
  userId: number,
  idOrUuid: number | string,
): Promise<ChatAnswer> {
  const chat = await memberChat(db, companyId, userId, idOrUuid);
  return chatView(db, companyId, chat.id);
}

export async function createChat(
  app: AppContext,
  companyId: number,
  ownerId: number,
  input: { title: string; users: number[] },
): Promise<ChatAnswer> {
  const members = [...new Set([ownerId, ...input.users])];
  return withChanges(app, companyId, async (tx, changes) => {
    const [chat] = (await tx.query(
      `INSERT INTO chats ("companyId", title, "ownerId") VALUES ($1, $2, $3) RETURNING id`,
      [companyId, input.title, ownerId],
    )) as { id: number }[];
    await tx.query(
      `INSERT INTO chat_users ("companyId", "chatId", "userId")
       SELECT $1, $2, u FROM unnest($3::int[]) AS u`,
      [companyId, chat!.id, members],
    );
    const view = await chatView(tx, companyId, chat!.id);
    toMembers(changes, view.id, members, { action: 'create', chat: view });
    return view;
  });
}

export async function updateChat(
  app: AppContext,
  companyId: number,
  userId: number,
  id: number,
  input: { title?: string; users?: number[] },
): Promise<ChatAnswer> {
  return withChanges(app, companyId, async (tx, changes) => {
    const chat = await ownedChat(tx, companyId, userId, id);
    // The chat row lock orders this against concurrent messages of the chat.
    await tx.query(
      `UPDATE chats SET title = COALESCE($3, title), "updatedAt" = now()
        WHERE "companyId" = $1 AND id = $2`,
      [companyId, chat.id, input.title ?? null],
    );
    let removed: number[] = [];
    if (input.users) {
      const keep = [...new Set([userId, ...input.users])];
      const gone = (await tx.query(
        `DELETE FROM chat_users WHERE "companyId" = $1 AND "chatId" = $2
            AND NOT ("userId" = ANY($3::int[])) RETURNING "userId"`,
        [companyId, chat.id, keep],
      )) as [{ userId: number }[], number];
      removed = gone[0].map((r) => r.userId);
      // A new member starts with everything read so far.
      await tx.query(
        `INSERT INTO chat_users ("companyId", "chatId", "userId", "lastReadMessageId")
         SELECT $1, $2, u, COALESCE((SELECT max(id) FROM chat_messages WHERE "chatId" = $2), 0)
           FROM unnest($3::int[]) AS u
         ON CONFLICT ("chatId", "userId") DO NOTHING`,
        [companyId, chat.id, keep],
      );
    }
    const view = await chatView(tx, companyId, chat.id);
    toMembers(
      changes,
      view.id,
      view.users.map((u) => u.userId),
      { action: 'update', chat: view },
    );
    toMembers(changes, view.id, removed, { action: 'delete', chatId: view.id, id: view.id });
    return view;
  });
}

export async function deleteChat(
  app: AppContext,
  companyId: number,
  userId: number,
  id: number,
): Promise<void> {
  await withChanges(app, companyId, async (tx, changes) => {
    const chat = await ownedChat(tx, companyId, userId, id);
    const members = await memberIds(tx, companyId, chat.id);
    await tx.query(`DELETE FROM chats WHERE "companyId" = $1 AND id = $2`, [companyId, chat.id]);
    toMembers(changes, chat.id, members, { action: 'delete', chatId: chat.id, id: chat.id });
  });
}

const MESSAGE_SQL = `
  SELECT m.id, m."chatId", m."senderId", m.message, m."createdAt",
         CASE WHEN u.id IS NULL THEN NULL ELSE json_build_object('id', u.id, 'name', u.name) END
           AS sender
    FROM chat_messages m LEFT JOIN users u ON u.id = m."senderId"`;

export async function listMessages(
  db: Db,
  companyId: number,
  userId: number,
  chatId: number,
  pageNumber: number,
) {
  const chat = await memberChat(db, companyId, userId, chatId);
  const rows = (await db.query(
    `${MESSAGE_SQL}
      WHERE m."companyId" = $1 AND m."chatId" = $2
      ORDER BY m.id DESC
      LIMIT ${CHAT_MESSAGES_PAGE_SIZE} OFFSET ${(pageNumber - 1) * CHAT_MESSAGES_PAGE_SIZE}`,
    [companyId, chat.id],
  )) as InternalChatMessageAnswer[];
  const [{ n }] = (await db.query(
    `SELECT count(*)::int AS n FROM chat_messages WHERE "companyId" = $1 AND "chatId" = $2`,
    [companyId, chat.id],
  )) as [{ n: number }];
  return {
    records: rows.reverse(),
    count: n,
    hasMore: n > pageNumber * CHAT_MESSAGES_PAGE_SIZE,
  };
}

/**
 * Stores a message. The chat row is updated (and so locked) before the insert: message ids of a
 * chat are drawn in commit order, which keeps the read cursor exact (see the migration).
 */
export async function sendMessage(
  app: AppContext,
  companyId: number,
  senderId: number,
  chatId: number,
  message: string,
): Promise<InternalChatMessageAnswer> {
  return withChanges(app, companyId, async (tx, changes) => {
    const [locked] = (await tx.query(
      `UPDATE chats c SET "lastMessage" = $4, "updatedAt" = now()
        WHERE c."companyId" = $1 AND c.id = $2
          AND EXISTS (SELECT 1 FROM chat_users cu WHERE cu."chatId" = c.id AND cu."userId" = $3)
        RETURNING c.id`,
      [companyId, chatId, senderId, message],
    )) as [{ id: number }[], number];
    if (!locked.length) throw new AppError('ERR_NO_CHAT_FOUND');
    const [inserted] = (await tx.query(
      `INSERT INTO chat_messages ("companyId", "chatId", "senderId", message)
       VALUES ($1, $2, $3, $4) RETURNING id`,
      [companyId, chatId, senderId, message],
    )) as { id: number }[];
    const [saved] = (await tx.query(`${MESSAGE_SQL} WHERE m.id = $1`, [
      inserted!.id,
    ])) as InternalChatMessageAnswer[];
    const view = await chatView(tx, companyId, chatId);
    toMembers(
      changes,
      chatId,
      view.users.map((u) => u.userId),
      { action: 'new-message', newMessage: saved!, chat: view },
    );
    return saved!;
  });
}

/**
 * Clears the reader's unread count: their cursor moves to the chat's newest message, in one
 * statement (no read-then-write). Only the reader's own row can change; a non-member changes
 * nothing and gets ERR_NO_CHAT_FOUND.
 */
export async function readChat(
  app: AppContext,
  companyId: number,
  readerId: number,
  chatId: number,
): Promise<ChatAnswer> {
  return withChanges(app, companyId, async (tx, changes) => {
    const rows = (await tx.query(
      `UPDATE chat_users cu
        SET "lastReadMessageId" = GREATEST(cu."lastReadMessageId",
              COALESCE((SELECT max(m.id) FROM chat_messages m WHERE m."chatId" = cu."chatId"), 0)),
            "updatedAt" = now()
      WHERE cu."companyId" = $1 AND cu."chatId" = $2 AND cu."userId" = $3
      RETURNING cu.id`,
      [companyId, chatId, readerId],
    )) as [{ id: number }[], number];
    if (!rows[0].length) throw new AppError('ERR_NO_CHAT_FOUND');
    const view = await chatView(tx, companyId, chatId);
    toMembers(
      changes,
      chatId,
      view.users.map((u) => u.userId),
      { action: 'update', chat: view },
    );
    return view;
  });
}
