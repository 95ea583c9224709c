import { Router } from 'express';
import { scheduleEndpoints as api, type ScheduleStatus } from '@atende/shared';
import type { EntityManager } from 'typeorm';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { serve } from '../../http/route.js';
import { cancelDurable, scheduleDurable } from '../../jobs/durable.js';
import { baseMime } from '../../whatsapp/media.js';
import { discardUploads } from '../../whatsapp/media-upload.js';
import { removeAttachment, receiveFile, storeAttachment } from '../queues/index.js';
import {
  assertFuture,
  emitSchedule,
  loadSchedule,
  SCHEDULE_VIEW_SQL,
  scheduleJob,
  scheduleKey,
  SCHEDULES_PAGE_SIZE,
  sendAtInstant,
  type ScheduleView,
} from './schedules.service.js';

/** Core §5: the schedule's attachment is png, jpg or jpeg. */
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/jpg']);
const IMAGE_NAME = /\.(png|jpe?g)$/i;

const wire = (s: ScheduleView) => ({
  ...s,
  sendAt: new Date(s.sendAt).toISOString(),
  sentAt: s.sentAt ? new Date(s.sentAt).toISOString() : null,
  createdAt: new Date(s.createdAt).toISOString(),
  updatedAt: new Date(s.updatedAt).toISOString(),
});

export function schedulesRoutes(app: AppContext): Router {
  const router = Router();

  /** Locks a schedule of the company that may still change (PENDENTE), or refuses. */
  const lockPending = async (tx: EntityManager, companyId: number, id: number) => {
    const [row] = (await tx.query(
      `SELECT id, status, "mediaPath" FROM schedules WHERE id = $1 AND "companyId" = $2 FOR UPDATE`,
      [id, companyId],
    )) as { id: number; status: ScheduleStatus; mediaPath: string | null }[];
    if (!row) throw new AppError('ERR_NO_SCHEDULE_FOUND');
    if (row.status !== 'PENDENTE') throw new AppError('ERR_SCHEDULE_ALREADY_SENT');
    return row;
  };

  serve(router, app, api.listSchedules, async ({ scope, query }) => {
    const params: unknown[] = [scope.companyId];
    const where = ['s."companyId" = $1'];
    if (query.searchParam) {
      params.push(`%${query.searchParam}%`);
      where.push(`(s.body ILIKE $${params.length} OR c.name ILIKE $${params.length})`);
    }
    if (query.contactId) {
      params.push(query.contactId);
      where.push(`s."contactId" = $${params.length}`);
    }
    if (query.from) {
      params.push(query.from);
      where.push(`s."sendAt" >= $${params.length}`);
    }
    if (query.to) {
      params.push(query.to);
      where.push(`s."sendAt" < $${params.length}`);
    }
    const [{ count }] = (await app.ds.query(
      `SELECT count(*)::int AS count FROM schedules s JOIN contacts c ON c.id = s."contactId"
        WHERE ${where.join(' AND ')}`,
      params,
    )) as [{ count: number }];
    const rows = (await app.ds.query(
      `${SCHEDULE_VIEW_SQL} WHERE ${where.join(' AND ')} ORDER BY s."sendAt" DESC, s.id DESC
        LIMIT ${SCHEDULES_PAGE_SIZE} OFFSET ${(query.pageNumber - 1) * SCHEDULES_PAGE_SIZE}`,
      params,
    )) as ScheduleView[];
    return {
      schedules: rows.map(wire),
      count,
      hasMore: count > query.pageNumber * SCHEDULES_PAGE_SIZE,
    };
  });

  serve(router, app, api.showSchedule, async ({ scope, params }) =>
    wire(await loadSchedule(app.ds, scope.companyId, params.id)),
  );

  serve(router, app, api.createSchedule, async ({ scope, user, body }) => {
    const companyId = scope.companyId;
    const sendAt = await sendAtInstant(app, companyId, body.sendAt);
    assertFuture(sendAt);
    const { schedule, trigger } = await app.ds.transaction(async (tx) => {
      const [row] = (await tx.query(
        `INSERT INTO schedules ("companyId", body, "sendAt", "contactId", "ticketId", "whatsappId",
                "userId")
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
        [
          companyId,
          body.body.trim(),
          sendAt,
          body.contactId,
          body.ticketId ?? null,
          body.whatsappId ?? null,
          user.id,
        ],
      )) as { id: number }[];
      const planned = await scheduleDurable(
        app,
        scheduleJob,
        { key: scheduleKey(row!.id), companyId, dueAt: sendAt, payload: { scheduleId: row!.id } },
        tx,
      );
      return { schedule: await loadSchedule(tx, companyId, row!.id), trigger: planned.trigger };
    });
    await trigger();
    emitSchedule(app, companyId, { action: 'create', schedule });
    return wire(schedule);
  });

  serve(router, app, api.updateSchedule, async ({ scope, params, body }) => {
    const companyId = scope.companyId;
    const sendAt =
      body.sendAt !== undefined ? await sendAtInstant(app, companyId, body.sendAt) : undefined;
    if (sendAt) assertFuture(sendAt);
    const { schedule, trigger } = await app.ds.transaction(async (tx) => {
      await lockPending(tx, companyId, params.id);
      const set: string[] = [];
      const values: unknown[] = [params.id, companyId];
      const put = (column: string, value: unknown) => {
        values.push(value);
        set.push(`"${column}" = $${values.length}`);
      };
      if (body.body !== undefined) put('body', body.body.trim());
      if (sendAt) put('sendAt', sendAt);
      if (body.contactId !== undefined) put('contactId', body.contactId);
      if (body.ticketId !== undefined) put('ticketId', body.ticketId);
      if (body.whatsappId !== undefined) put('whatsappId', body.whatsappId);
      await tx.query(
        `UPDATE schedules SET ${[...set, '"updatedAt" = now()'].join(', ')}
          WHERE id = $1 AND "companyId" = $2`,
        values,
      );
      const planned = sendAt
        ? await scheduleDurable(
            app,
            scheduleJob,
            {
              key: scheduleKey(params.id),
              companyId,
              dueAt: sendAt,
              payload: { scheduleId: params.id },
            },
            tx,
          )
        : undefined;
      return {
        schedule: await loadSchedule(tx, companyId, params.id),
        trigger: planned?.trigger,
      };
    });
    await trigger?.();
    emitSchedule(app, companyId, { action: 'update', schedule });
    return wire(schedule);
  });

  serve(router, app, api.deleteSchedule, async ({ scope, params }) => {
    const companyId = scope.companyId;
    const mediaPath = await app.ds.transaction(async (tx) => {
      const [rows] = (await tx.query(
        `DELETE FROM schedules WHERE id = $1 AND "companyId" = $2 RETURNING "mediaPath"`,
        [params.id, companyId],
      )) as [{ mediaPath: string | null }[], number];
      if (!rows.length) throw new AppError('ERR_NO_SCHEDULE_FOUND');
      await cancelDurable(app, scheduleJob, scheduleKey(params.id), tx);
      return rows[0]!.mediaPath;
    });
    await removeAttachment(app, companyId, mediaPath);
    emitSchedule(app, companyId, { action: 'delete', id: params.id });
    return { message: 'Schedule deleted' };
  });

  serve(router, app, api.attachScheduleMedia, async ({ scope, params, req, res }) => {
    const companyId = scope.companyId;
    // Checked before reading the upload, and again under the lock when storing it.
    await app.ds.transaction((tx) => lockPending(tx, companyId, params.id));
    const file = await receiveFile(app, req, res);
    if (!IMAGE_TYPES.has(baseMime(file.mimetype)) || !IMAGE_NAME.test(file.originalName)) {
      await discardUploads([file]);
      throw new AppError('ERR_VALIDATION', {
        details: [{ path: 'body.file', message: 'png, jpg, jpeg' }],
      });
    }
    const attachment = await storeAttachment(app, companyId, file);
    let before: string | null = null;
    try {
      before = await app.ds.transaction(async (tx) => {
        const row = await lockPending(tx, companyId, params.id);
        await tx.query(
          `UPDATE schedules SET "mediaPath" = $3, "mediaName" = $4, "updatedAt" = now()
            WHERE id = $1 AND "companyId" = $2`,
          [params.id, companyId, attachment.mediaPath, attachment.mediaName],
        );
        return row.mediaPath;
      });
    } catch (err) {
      await removeAttachment(app, companyId, attachment.mediaPath);
      throw err;
    }
    await removeAttachment(app, companyId, before);
    const schedule = await loadSchedule(app.ds, companyId, params.id);
    emitSchedule(app, companyId, { action: 'update', schedule });
    return { mensagem: 'Arquivo Anexado', record: wire(schedule) };
  });

  serve(router, app, api.removeScheduleMedia, async ({ scope, params }) => {
    const companyId = scope.companyId;
    const before = await app.ds.transaction(async (tx) => {
      const row = await lockPending(tx, companyId, params.id);
      await tx.query(
        `UPDATE schedules SET "mediaPath" = NULL, "mediaName" = NULL, "updatedAt" = now()
          WHERE id = $1 AND "companyId" = $2`,
        [params.id, companyId],
      );
      return row.mediaPath;
    });
    await removeAttachment(app, companyId, before);
    const schedule = await loadSchedule(app.ds, companyId, params.id);
    emitSchedule(app, companyId, { action: 'update', schedule });
    return { mensagem: 'Arquivo excluído', record: wire(schedule) };
  });

  return router;
}
