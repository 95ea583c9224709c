import type { DataSource, EntityManager } from 'typeorm';
import { AppError } from '../../http/errors.js';
import type { Change } from '../changes/index.js';
import type { TicketView } from '../tickets/index.js';

type Db = DataSource | EntityManager;

export interface MessageView {
  id: number;
  ticketId: number;
  contactId: number;
  whatsappId: number | null;
  wid: string;
  body: string;
  fromMe: boolean;
  read: boolean;
  ack: number;
  mediaType: string;
  mediaUrl: string | null;
  /** The file's original name (a document's, or an agent's upload), when known. */
  fileName: string | null;
  isDeleted: boolean;
  isEdited: boolean;
  previousBodies: { body: string; editedAt: string }[];
  reactions: { from: string; emoji: string; fromMe: boolean }[];
  location: unknown;
  vcards: string[] | null;
  participant: string | null;
  quotedMsgId: number | null;
  quotedMsg: { id: number; body: string; fromMe: boolean; mediaType: string } | null;
  contact: { id: number; name: string } | null;
  clientId: string | null;
  userId: number | null;
  sendError: string | null;
  createdAt: string;
  updatedAt: string;
}

export const MESSAGE_VIEW_SQL = `
  SELECT m.id, m."ticketId", m."contactId", m."whatsappId", m.wid, m.body, m."fromMe", m.read,
         m.ack, m."mediaType", m."mediaUrl", m."isDeleted", m."isEdited", m."previousBodies",
         m.reactions, m.location, m.vcards, m.participant, m."quotedMsgId", m."clientId",
         m."userId", m."sendError", m."createdAt", m."updatedAt",
         m."mediaRef"->>'fileName' AS "fileName",
         CASE WHEN qm.id IS NULL THEN NULL ELSE json_build_object('id', qm.id, 'body', qm.body,
           'fromMe', qm."fromMe", 'mediaType', qm."mediaType") END AS "quotedMsg",
         CASE WHEN m."fromMe" THEN NULL
              ELSE json_build_object('id', c.id, 'name', c.name) END AS contact
    FROM messages m
    LEFT JOIN messages qm ON qm.id = m."quotedMsgId"
    LEFT JOIN contacts c ON c.id = m."contactId"`;

export async function loadMessages(
  db: Db,
  companyId: number,
  ids: number[],
): Promise<MessageView[]> {
  if (!ids.length) return [];
  const rows = (await db.query(
    `${MESSAGE_VIEW_SQL} WHERE m."companyId" = $1 AND m.id = ANY($2::int[])`,
    [companyId, ids],
  )) as MessageView[];
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export async function loadMessage(db: Db, companyId: number, id: number): Promise<MessageView> {
  const [message] = await loadMessages(db, companyId, [id]);
  if (!message) throw new AppError('ERR_NO_MESSAGE_FOUND');
  return message;
}

/** `company-{id}-appMessage` create/update: the message with its ticket (core §7). */
export const messageChange = (
  message: MessageView,
  ticket: TicketView,
  action: 'create' | 'update',
): Change => ({
  entity: 'message',
  entityId: message.id,
  action,
  payload: { action, message, ticket, contact: ticket.contact },
  ticketQueueId: ticket.queueId,
});
