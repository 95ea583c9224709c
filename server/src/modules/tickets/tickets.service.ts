import { TicketTransitionError, type TicketCommand, type TicketUpdateBody } from '@atende/shared';
import type { EntityManager } from 'typeorm';
import type { AppContext } from '../../context.js';
import { lockContactForWrite, lockTicketForWrite } from '../../db/transaction.js';
import { AppError } from '../../http/errors.js';
import { logger } from '../../logger.js';
import type { Change } from '../changes/index.js';
import { withChanges, type TicketChangeHints } from '../changes/index.js';
import { ticketEvents } from './ticket-events.js';
import { sendMessage } from '../messages/index.js';
import { startRating } from '../rating/index.js';
import { onTicketTransferred } from '../routing/index.js';
import { armTicketTimers } from '../timers/index.js';
import {
  planTicketWrite,
  writeTicket,
  type TicketFlags,
  type TicketPlan,
} from './ticket-writes.js';
import { loadTicket, ticketChange, ticketGone, type TicketView } from './tickets.queries.js';
import { assertCanOpen, isAdmin, type Viewer } from './visibility.js';

async function assertOwned(
  tx: EntityManager,
  table: string,
  id: number,
  companyId: number,
  code: 'ERR_NO_QUEUE_FOUND' | 'ERR_NO_USER_FOUND' | 'ERR_NO_WAPP_FOUND' | 'ERR_NO_CONTACT_FOUND',
) {
  const rows = (await tx.query(`SELECT 1 FROM ${table} WHERE id = $1 AND "companyId" = $2`, [
    id,
    companyId,
  ])) as unknown[];
  if (!rows.length) throw new AppError(code);
}

/** ERR_OTHER_OPEN_TICKET carries the ticket, its owner and queue (core §8 special handling). */
async function otherOpenTicket(
  tx: EntityManager | AppContext['ds'],
  companyId: number,
  contactId: number,
  whatsappId: number,
  exceptId = 0,
): Promise<AppError | undefined> {
  const [row] = (await tx.query(
    `SELECT id FROM tickets WHERE "companyId" = $1 AND "contactId" = $2 AND "whatsappId" = $3
        AND status <> 'closed' AND id <> $4`,
    [companyId, contactId, whatsappId, exceptId],
  )) as { id: number }[];
  if (!row) return undefined;
  const t = await loadTicket(tx, companyId, row.id);
  return new AppError('ERR_OTHER_OPEN_TICKET', {
    details: { ticketId: t.id, uuid: t.uuid, status: t.status, user: t.user, queue: t.queue },
  });
}

const isUniqueViolation = (err: unknown) => (err as { code?: string }).code === '23505';

async function defaultConnection(tx: EntityManager, viewer: Viewer): Promise<number> {
  const [row] = (await tx.query(
    `SELECT COALESCE((SELECT "whatsappId" FROM users WHERE id = $2 AND "whatsappId" IS NOT NULL),
                     (SELECT id FROM whatsapps WHERE "companyId" = $1 AND "isDefault" LIMIT 1),
                     (SELECT id FROM whatsapps WHERE "companyId" = $1 ORDER BY id LIMIT 1)) AS id`,
    [viewer.companyId, viewer.id],
  )) as { id: number | null }[];
  if (!row?.id) throw new AppError('ERR_NO_DEF_WAPP_FOUND');
  return row.id;
}

export interface TicketCreate {
  contactId: number;
  queueId?: number | null;
  whatsappId?: number | null;
  userId?: number | null;
  status?: 'pending' | 'open' | 'closed';
}

/** New ticket from the dialog: posted open, owned by the chosen (or acting) user. */
export async function createTicket(
  app: AppContext,
  viewer: Viewer,
  input: TicketCreate,
): Promise<TicketView> {
  if (input.queueId == null && !isAdmin(viewer)) throw new AppError('ERR_TRANSFER_QUEUE_REQUIRED');
  return withChanges(app, viewer.companyId, async (tx, changes) => {
    const c = viewer.companyId;
    // The contact is locked first, as every ticket writer does (db/transaction.ts).
    if (!(await lockContactForWrite(tx, c, input.contactId)))
      throw new AppError('ERR_NO_CONTACT_FOUND');
    if (input.queueId != null)
      await assertOwned(tx, 'queues', input.queueId, c, 'ERR_NO_QUEUE_FOUND');
    if (input.userId != null) await assertOwned(tx, 'users', input.userId, c, 'ERR_NO_USER_FOUND');
    let whatsappId = input.whatsappId ?? undefined;
    if (whatsappId != null) await assertOwned(tx, 'whatsapps', whatsappId, c, 'ERR_NO_WAPP_FOUND');
    else whatsappId = await defaultConnection(tx, viewer);
    const clash = await otherOpenTicket(tx, c, input.contactId, whatsappId);
    if (clash) throw clash;
    const status = input.status && input.status !== 'closed' ? input.status : 'open';
    const userId = status === 'pending' ? null : (input.userId ?? viewer.id);
    const [row] = (await tx
      .query(
        `INSERT INTO tickets ("companyId", "contactId", "whatsappId", "queueId", "userId", status,
                "acceptedAt", "isGroup")
         VALUES ($1, $2, $3, $4, $5, $6::varchar, CASE WHEN $6::varchar = 'open' THEN now() END,
                 (SELECT "isGroup" FROM contacts WHERE id = $2)) RETURNING id`,
        [c, input.contactId, whatsappId, input.queueId ?? null, userId, status],
      )
      .catch(async (err: unknown) => {
        if (isUniqueViolation(err))
          throw (await otherOpenTicket(app.ds, c, input.contactId, whatsappId)) ?? err;
        throw err;
      })) as { id: number }[];
    const ticket = await loadTicket(tx, c, row!.id);
    changes.push(ticketChange(ticket));
    changes.events.push({
      type: 'ticket.created',
      payload: { ticketId: ticket.id, contactId: ticket.contactId, whatsappId: ticket.whatsappId },
    });
    return ticket;
  });
}

/**
 * The changes of a ticket that moved: viewers of its old queue who cannot see the new one lose
 * it (a feed delete), clients showing a list it left get a delete, then the update goes out.
 */
export function ticketMoved(before: TicketView, after: TicketView): (Change & TicketChangeHints)[] {
  const moves: (Change & TicketChangeHints)[] = [];
  if (after.queueId !== before.queueId)
    moves.push({ ...ticketGone(after.id, before.queueId), movedToQueue: after.queueId });
  const { status, userId, queueId } = before;
  moves.push({ ...ticketChange(after), before: { status, userId, queueId } });
  return moves;
}

/** Which action of core §4 a `PUT /tickets/{id}` body asks for. */
export function commandFor(
  ticket: TicketView,
  body: TicketUpdateBody,
  actorId: number,
): TicketCommand | undefined {
  if (body.status === 'closed') return { action: 'finish' };
  const queueMoves = body.queueId !== undefined && body.queueId !== ticket.queueId;
  const userMoves = body.userId != null && body.userId !== actorId && body.userId !== ticket.userId;
  const whatsappMoves = body.whatsappId != null && body.whatsappId !== ticket.whatsappId;
  if (queueMoves || userMoves || whatsappMoves) {
    const queueId = body.queueId ?? ticket.queueId;
    if (queueId == null) throw new AppError('ERR_TRANSFER_QUEUE_REQUIRED');
    return {
      action: 'transfer',
      queueId,
      userId: body.userId ?? null,
      whatsappId: body.whatsappId ?? null,
      // A ticket handed to a person is theirs to answer (the transfer dialog's behaviour).
      ...(body.status === 'open' && { open: true }),
    };
  }
  if (body.status === 'open') return { action: ticket.status === 'closed' ? 'reopen' : 'accept' };
  if (body.status === 'pending') return { action: 'return' };
  return undefined;
}

const FLAG_FIELDS = ['useIntegration', 'promptId', 'integrationId', 'chatbot'] as const;

/** Accept, return, finish, reopen and transfer (core §4), plus the integration flags. */
export async function updateTicket(
  app: AppContext,
  viewer: Viewer,
  id: number,
  body: TicketUpdateBody,
): Promise<TicketView> {
  // With userRating on, finishing first asks the customer for a rating; the answer closes it.
  if (body.status === 'closed') {
    const current = await loadTicket(app.ds, viewer.companyId, id);
    assertCanOpen(viewer, current);
    if (current.status !== 'closed' && (await startRating(app, viewer.companyId, id, viewer.id))) {
      return loadTicket(app.ds, viewer.companyId, id);
    }
  }
  let greet: TicketView | undefined;
  let transferred: TicketView | undefined;
  let action: TicketCommand['action'] | undefined;
  const updated = await withChanges(app, viewer.companyId, async (tx, changes) => {
    const c = viewer.companyId;
    greet = transferred = action = undefined;
    if (!(await lockTicketForWrite(tx, c, id))) throw new AppError('ERR_NO_TICKET_FOUND');
    const ticket = await loadTicket(tx, c, id);
    assertCanOpen(viewer, ticket);
    const command = commandFor(ticket, body, viewer.id);
    const flags: TicketFlags = {};
    for (const field of FLAG_FIELDS)
      if (body[field] !== undefined) Object.assign(flags, { [field]: body[field] });
    let plan: TicketPlan;
    try {
      plan = planTicketWrite(ticket, { command, actorId: viewer.id, flags });
    } catch (err) {
      if (err instanceof TicketTransitionError) throw new AppError('ERR_INVALID_TICKET_TRANSITION');
      throw err;
    }
    if (command?.action === 'transfer') {
      await assertOwned(tx, 'queues', command.queueId, c, 'ERR_NO_QUEUE_FOUND');
      if (command.userId != null)
        await assertOwned(tx, 'users', command.userId, c, 'ERR_NO_USER_FOUND');
      if (command.whatsappId != null)
        await assertOwned(tx, 'whatsapps', command.whatsappId, c, 'ERR_NO_WAPP_FOUND');
    }
    const { next } = plan;
    if (
      next.status !== 'closed' &&
      next.whatsappId != null &&
      (ticket.status === 'closed' || next.whatsappId !== ticket.whatsappId)
    ) {
      const clash = await otherOpenTicket(tx, c, ticket.contactId, next.whatsappId, ticket.id);
      if (clash) throw clash;
    }
    const after = await writeTicket(tx, c, plan);
    changes.push(...ticketMoved(ticket, after));
    changes.events.push(...ticketEvents(ticket, after, 'agent'));
    if (command?.action === 'accept') greet = after;
    if (command?.action === 'transfer' && after.queueId !== ticket.queueId) transferred = after;
    action = command?.action;
    return after;
  });
  if (greet) await greetOnAccept(app, viewer, greet);
  if (transferred) {
    await onTicketTransferred(app, viewer.companyId, transferred).catch((err: unknown) =>
      logger.error({ err, ticketId: id }, 'transfer notice not sent'),
    );
  }
  // Idle, transfer and auto-close timers follow the ticket's new state.
  if (action && action !== 'finish') await armTicketTimers(app, id);
  return updated;
}

/** sendGreetingAccepted: an agent who accepts a (non-group) ticket introduces themself. */
async function greetOnAccept(app: AppContext, viewer: Viewer, ticket: TicketView): Promise<void> {
  if (ticket.isGroup) return;
  if ((await app.settings.get(viewer.companyId, 'sendGreetingAccepted')) !== 'enabled') return;
  const body = `Olá *${ticket.contact.name}*, meu nome é *${viewer.name}* e agora vou prosseguir com seu atendimento!`;
  await sendMessage(app, viewer, { ticketId: ticket.id, body, origin: 'greeting' }).catch(
    (err: unknown) => logger.error({ err, ticketId: ticket.id }, 'greeting on accept not sent'),
  );
}

export async function deleteTicket(app: AppContext, viewer: Viewer, id: number): Promise<void> {
  await withChanges(app, viewer.companyId, async (tx, changes) => {
    if (!(await lockTicketForWrite(tx, viewer.companyId, id)))
      throw new AppError('ERR_NO_TICKET_FOUND');
    const ticket = await loadTicket(tx, viewer.companyId, id);
    assertCanOpen(viewer, ticket);
    await tx.query('DELETE FROM tickets WHERE id = $1 AND "companyId" = $2', [
      id,
      viewer.companyId,
    ]);
    changes.push(ticketGone(id, ticket.queueId));
  });
}
