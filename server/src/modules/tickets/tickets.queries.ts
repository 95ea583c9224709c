import type { DataSource, EntityManager } from 'typeorm';
import { AppError } from '../../http/errors.js';
import type { Change } from '../changes/index.js';

type Db = DataSource | EntityManager;

/** A ticket as the lists and the ticket view show it (core §3), with its relations. */
export interface TicketView {
  id: number;
  uuid: string;
  status: 'pending' | 'open' | 'closed';
  contactId: number;
  whatsappId: number | null;
  userId: number | null;
  queueId: number | null;
  lastMessage: string;
  unreadMessages: number;
  isGroup: boolean;
  chatbot: boolean;
  useIntegration: boolean;
  promptId: number | null;
  integrationId: number | null;
  createdAt: string;
  updatedAt: string;
  contact: { id: number; name: string; number: string; profilePicUrl: string; email: string };
  user: { id: number; name: string } | null;
  queue: { id: number; name: string; color: string } | null;
  whatsapp: { id: number; name: string } | null;
  tags: { id: number; name: string; color: string }[];
}

export const TICKET_VIEW_SQL = `
  SELECT t.id, t.uuid, t.status, t."contactId", t."whatsappId", t."userId", t."queueId",
         t."lastMessage", t."unreadMessages", t."isGroup", t.chatbot, t."useIntegration",
         t."promptId", t."integrationId", t."createdAt", t."updatedAt",
         json_build_object('id', c.id, 'name', c.name, 'number', c.number,
           'profilePicUrl', c."profilePicUrl", 'email', c.email) AS contact,
         CASE WHEN u.id IS NULL THEN NULL ELSE json_build_object('id', u.id, 'name', u.name) END AS "user",
         CASE WHEN q.id IS NULL THEN NULL
              ELSE json_build_object('id', q.id, 'name', q.name, 'color', q.color) END AS queue,
         CASE WHEN w.id IS NULL THEN NULL ELSE json_build_object('id', w.id, 'name', w.name) END AS whatsapp,
         COALESCE((SELECT json_agg(json_build_object('id', g.id, 'name', g.name, 'color', g.color)
                     ORDER BY g.name)
                     FROM ticket_tags tt JOIN tags g ON g.id = tt."tagId"
                    WHERE tt."ticketId" = t.id), '[]') AS tags
    FROM tickets t
    JOIN contacts c ON c.id = t."contactId"
    LEFT JOIN users u ON u.id = t."userId"
    LEFT JOIN queues q ON q.id = t."queueId"
    LEFT JOIN whatsapps w ON w.id = t."whatsappId"`;

export async function loadTickets(db: Db, companyId: number, ids: number[]): Promise<TicketView[]> {
  if (!ids.length) return [];
  const rows = (await db.query(
    `${TICKET_VIEW_SQL} WHERE t."companyId" = $1 AND t.id = ANY($2::int[])`,
    [companyId, ids],
  )) as TicketView[];
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export async function loadTicket(db: Db, companyId: number, id: number): Promise<TicketView> {
  const [ticket] = await loadTickets(db, companyId, [id]);
  if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND');
  return ticket;
}

/** The change (and socket event) that tells viewers of the ticket's queue it changed. */
export const ticketChange = (ticket: TicketView): Change => ({
  entity: 'ticket',
  entityId: ticket.id,
  action: 'update',
  payload: { action: 'update', ticket },
  ticketQueueId: ticket.queueId,
});

/** Removes the ticket from the lists of those who saw it under `queueId`. */
export const ticketGone = (ticketId: number, queueId: number | null): Change => ({
  entity: 'ticket',
  entityId: ticketId,
  action: 'delete',
  payload: { action: 'delete', ticketId },
  ticketQueueId: queueId,
});

/**
 * The non-closed ticket of a contact on a connection, or a new pending one. A closed ticket
 * stays closed: a new conversation opens a new ticket (the thread still spans both).
 */
export async function findOrCreateTicket(
  tx: EntityManager,
  companyId: number,
  contactId: number,
  whatsappId: number,
  isGroup: boolean,
): Promise<{ id: number; queueId: number | null; created: boolean }> {
  const find = async () =>
    (
      (await tx.query(
        `SELECT id, "queueId" FROM tickets
          WHERE "contactId" = $1 AND "whatsappId" = $2 AND status <> 'closed' FOR UPDATE`,
        [contactId, whatsappId],
      )) as { id: number; queueId: number | null }[]
    )[0];
  const existing = await find();
  if (existing) return { ...existing, created: false };
  const [inserted] = (await tx.query(
    `INSERT INTO tickets ("companyId", "contactId", "whatsappId", status, "isGroup")
     VALUES ($1, $2, $3, 'pending', $4)
     ON CONFLICT ("contactId", "whatsappId") WHERE status <> 'closed' DO NOTHING
     RETURNING id, "queueId"`,
    [companyId, contactId, whatsappId, isGroup],
  )) as { id: number; queueId: number | null }[];
  if (inserted) return { ...inserted, created: true };
  const raced = await find();
  if (!raced) throw new AppError('ERR_CREATING_TICKET');
  return { ...raced, created: false };
}
