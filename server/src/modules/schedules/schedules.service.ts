// Scheduled messages (issue 17 item 1). The `schedules` row is the record; its firing is a
// durable job (kind `schedule`, key `schedule:<id>`, due at `sendAt`). A firing locks the row,
// sends through the one outgoing writer with the clientId `schedule:<id>` (so a firing retried
// after a crash finds the message already stored and sends nothing twice) and marks the row
// ENVIADA in the firing's transaction. A firing that finds itself later than the grace window
// (SCHEDULE_GRACE_MINUTES, a server down at `sendAt`) marks the row PERDIDA and sends nothing.
import {
  hasOffset,
  TIME_ZONE_SETTING,
  timeZoneOr,
  zonedTime,
  type ScheduleAnswer,
  type ScheduleStatus,
} from '@atende/shared';
import type { DataSource, EntityManager } from 'typeorm';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { lockContactForWrite } from '../../db/transaction.js';
import { AppError } from '../../http/errors.js';
import {
  defineDurableJob,
  startDurableJobs,
  sweepDurable,
  type DurableJob,
  type Firing,
  type FiringOutcome,
} from '../../jobs/durable.js';
import { logger } from '../../logger.js';
import { mediaUrl, mimeOfExtension } from '../../whatsapp/media.js';
import { withChanges } from '../changes/index.js';
import { sendOutgoing } from '../messages/index.js';
import { now } from '../routing/index.js';
import { findOrCreateTicket, loadTicket, ticketChange } from '../tickets/index.js';

type Db = DataSource | EntityManager;

/** The clientId prefix of a schedule's message: one message per schedule, whoever fires it. */
export const SCHEDULE_CLIENT_PREFIX = 'schedule:';
export const SCHEDULES_PAGE_SIZE = 20;
/** The durable job's key of a schedule. */
export const scheduleKey = (id: number) => `schedule:${id}`;

export const SCHEDULE_VIEW_SQL = `
  SELECT s.id, s."companyId", s.body, s."sendAt", s."sentAt", s.status, s."contactId",
         s."ticketId", s."whatsappId", s."userId", s."messageId", s."mediaPath", s."mediaName",
         CASE WHEN s."mediaPath" IS NULL THEN NULL ELSE '/media/' || s."mediaPath" END AS "mediaUrl",
         s."createdAt", s."updatedAt",
         json_build_object('id', c.id, 'name', c.name, 'number', c.number) AS contact,
         CASE WHEN u.id IS NULL THEN NULL ELSE json_build_object('id', u.id, 'name', u.name) END AS "user",
         CASE WHEN w.id IS NULL THEN NULL ELSE json_build_object('id', w.id, 'name', w.name) END AS whatsapp
    FROM schedules s
    JOIN contacts c ON c.id = s."contactId"
    LEFT JOIN users u ON u.id = s."userId"
    LEFT JOIN whatsapps w ON w.id = s."whatsappId"`;

export type ScheduleView = Omit<ScheduleAnswer, 'sendAt' | 'sentAt' | 'createdAt' | 'updatedAt'> & {
  sendAt: Date;
  sentAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
};

export async function loadSchedule(db: Db, companyId: number, id: number): Promise<ScheduleView> {
  const [row] = (await db.query(`${SCHEDULE_VIEW_SQL} WHERE s.id = $1 AND s."companyId" = $2`, [
    id,
    companyId,
  ])) as ScheduleView[];
  if (!row) throw new AppError('ERR_NO_SCHEDULE_FOUND');
  return row;
}

/** Tells the company's clients (secondary §7 live lists). */
export function emitSchedule(
  app: AppContext,
  companyId: number,
  change:
    { action: 'create' | 'update'; schedule: ScheduleView } | { action: 'delete'; id: number },
): void {
  if (change.action === 'delete') {
    app.realtime.toCompany(companyId, 'schedule', { action: 'delete', scheduleId: change.id });
  } else {
    app.realtime.toCompany(companyId, 'schedule', {
      action: change.action,
      schedule: change.schedule,
    });
  }
}

/**
 * The instant a `sendAt` names: with an offset as given; without one, wall time in the company's
 * zone (the `timezone` setting, default America/Sao_Paulo).
 */
export async function sendAtInstant(
  app: AppContext,
  companyId: number,
  sendAt: string,
): Promise<Date> {
  const text = sendAt.replace(' ', 'T');
  if (hasOffset(text)) return new Date(text);
  const zone = timeZoneOr(await app.settings.get(companyId, TIME_ZONE_SETTING));
  const [day, time] = text.split('T') as [string, string];
  const [h, m, s] = time.split(':').map(Number) as [number, number, number?];
  const at = zonedTime(day, h * 60 + m, zone);
  return new Date(at.getTime() + Math.round((s ?? 0) * 1000));
}

/** A schedule may only be set in the future (issue 17, bad input). */
export function assertFuture(at: Date): void {
  if (Number.isNaN(at.getTime())) {
    throw new AppError('ERR_VALIDATION', {
      details: [{ path: 'body.sendAt', message: 'Data inválida' }],
    });
  }
  if (at.getTime() <= now().getTime()) throw new AppError('ERR_SCHEDULE_IN_PAST');
}

// ---- sending ---------------------------------------------------------------------------------

interface Row {
  id: number;
  companyId: number;
  body: string;
  sendAt: Date;
  status: ScheduleStatus;
  contactId: number;
  ticketId: number | null;
  whatsappId: number | null;
  userId: number | null;
  mediaPath: string | null;
  mediaName: string | null;
}

/**
 * The ticket the message goes to: the schedule's ticket while it is not closed (and on the chosen
 * connection, if one was chosen), else the contact's open or pending ticket on the connection
 * (chosen; the schedule's ticket's; the contact's last; the company's default), else a new one.
 */
async function ticketFor(app: AppContext, row: Row): Promise<number> {
  return withChanges(app, row.companyId, async (tx, changes) => {
    let whatsappId = row.whatsappId;
    if (row.ticketId) {
      const [t] = (await tx.query(
        `SELECT id, status, "whatsappId" FROM tickets WHERE id = $1 AND "companyId" = $2`,
        [row.ticketId, row.companyId],
      )) as { id: number; status: string; whatsappId: number | null }[];
      if (
        t &&
        t.status !== 'closed' &&
        t.whatsappId != null &&
        (whatsappId == null || whatsappId === t.whatsappId)
      ) {
        return t.id;
      }
      whatsappId ??= t?.whatsappId ?? null;
    }
    if (whatsappId == null) {
      const [last] = (await tx.query(
        `SELECT "whatsappId" FROM tickets WHERE "contactId" = $1 AND "companyId" = $2
            AND "whatsappId" IS NOT NULL ORDER BY "updatedAt" DESC LIMIT 1`,
        [row.contactId, row.companyId],
      )) as { whatsappId: number }[];
      whatsappId = last?.whatsappId ?? null;
    }
    if (whatsappId == null) {
      const [def] = (await tx.query(
        `SELECT id FROM whatsapps WHERE "companyId" = $1 ORDER BY "isDefault" DESC, id LIMIT 1`,
        [row.companyId],
      )) as { id: number }[];
      whatsappId = def?.id ?? null;
    }
    if (whatsappId == null) throw new AppError('ERR_NO_DEF_WAPP_FOUND');
    if (!(await lockContactForWrite(tx, row.companyId, row.contactId))) {
      throw new AppError('ERR_NO_CONTACT_FOUND');
    }
    const [contact] = (await tx.query('SELECT "isGroup" FROM contacts WHERE id = $1', [
      row.contactId,
    ])) as { isGroup: boolean }[];
    const ticket = await findOrCreateTicket(
      tx,
      row.companyId,
      row.contactId,
      whatsappId,
      contact?.isGroup ?? false,
    );
    if (ticket.created) changes.push(ticketChange(await loadTicket(tx, row.companyId, ticket.id)));
    return ticket.id;
  });
}

/** Errors that no retry would fix: the schedule is marked ERRO with the code. */
const FINAL_ERRORS = new Set([
  'ERR_NO_DEF_WAPP_FOUND',
  'ERR_NO_WAPP_FOUND',
  'ERR_NO_CONTACT_FOUND',
  'ERR_EMPTY_MESSAGE',
]);

async function mark(
  app: AppContext,
  firing: Firing<unknown>,
  row: Row,
  set: {
    status: ScheduleStatus;
    sentAt?: Date;
    messageId?: number;
    ticketId?: number;
    error?: string;
  },
): Promise<void> {
  await firing.tx.query(
    `UPDATE schedules SET status = $3, "sentAt" = $4, "messageId" = COALESCE($5, "messageId"),
            "ticketId" = COALESCE($6, "ticketId"), error = $7, "updatedAt" = now()
      WHERE id = $1 AND "companyId" = $2`,
    [
      row.id,
      row.companyId,
      set.status,
      set.sentAt ?? null,
      set.messageId ?? null,
      set.ticketId ?? null,
      set.error ?? null,
    ],
  );
  emitSchedule(app, row.companyId, {
    action: 'update',
    schedule: await loadSchedule(firing.tx, row.companyId, row.id),
  });
}

async function fireSchedule(
  app: AppContext,
  firing: Firing<{ scheduleId: number }>,
): Promise<FiringOutcome> {
  const [row] = (await firing.tx.query(
    `SELECT id, "companyId", body, "sendAt", status, "contactId", "ticketId", "whatsappId",
            "userId", "mediaPath", "mediaName"
       FROM schedules WHERE id = $1 AND "companyId" = $2 FOR UPDATE`,
    [firing.payload.scheduleId, firing.companyId],
  )) as Row[];
  // Deleted, or already sent/missed: nothing to do.
  if (!row || row.status !== 'PENDENTE') return;
  const at = now();
  const sendAt = new Date(row.sendAt);
  // Moved later after this firing was planned (an edit re-plans it too): wait for the new time.
  if (sendAt.getTime() > at.getTime()) return { rescheduleAt: sendAt };
  const graceMs = app.config.SCHEDULE_GRACE_MINUTES * 60_000;
  if (at.getTime() - sendAt.getTime() > graceMs) {
    logger.warn({ scheduleId: row.id, sendAt }, 'schedule missed: past the grace window');
    await mark(app, firing, row, { status: 'PERDIDA' });
    return;
  }
  try {
    const ticketId = await ticketFor(app, row);
    const sent = await sendOutgoing(app, row.companyId, {
      ticketId,
      body: row.body,
      clientId: `${SCHEDULE_CLIENT_PREFIX}${row.id}`,
      userId: row.userId,
      origin: 'schedule',
      ...(row.mediaPath && {
        media: {
          path: `${row.companyId}/${row.mediaPath}`,
          url: mediaUrl(row.mediaPath),
          mimetype: mimeOfExtension(row.mediaPath.split('.').pop() ?? ''),
          ...(row.mediaName && { fileName: row.mediaName }),
        },
      }),
    });
    await mark(app, firing, row, {
      status: 'ENVIADA',
      sentAt: at,
      messageId: sent.message.id,
      ticketId,
    });
  } catch (err) {
    if (err instanceof AppError && FINAL_ERRORS.has(err.code)) {
      await mark(app, firing, row, { status: 'ERRO', error: err.code });
      return;
    }
    throw err;
  }
}

export const scheduleJob = defineDurableJob({
  kind: 'schedule',
  payload: z.object({ scheduleId: z.number().int().positive() }),
  now: () => now(),
  run: (app, firing) => fireSchedule(app, firing),
}) as DurableJob<unknown>;

/** The worker: triggers at `sendAt`, and the sweeper finds what was due while it was down. */
export const startSchedules = async (app: AppContext) => startDurableJobs(app, [scheduleJob]);

/** Fires every due schedule now (tests; the sweeper does this every few seconds). */
export const sweepSchedules = (app: AppContext) => sweepDurable(app, [scheduleJob]);
