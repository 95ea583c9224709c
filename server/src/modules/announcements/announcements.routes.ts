import { Router, type Request } from 'express';
import {
  ANNOUNCEMENT_IMAGE_TYPES,
  ANNOUNCEMENTS_PAGE_SIZE,
  announcementEndpoints as api,
  type AnnouncementAnswer,
} from '@atende/shared';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { serve } from '../../http/route.js';
import type { AuthUser } from '../auth/index.js';
import { mediaUrl } from '../../whatsapp/media.js';
import { discardUploads } from '../../whatsapp/media-upload.js';
import { receiveFile, removeAttachment, storeAttachment } from '../queues/index.js';
import { mediaBase, withSignedMedia } from '../whatsapps/index.js';

/**
 * Announcements are platform-wide (secondary §1 "notices written by the super user", core §7's
 * `company-announcement` channel without a company id): one list, read by every company's users.
 * `companyId` is the author's company (where the image is stored); the super user manages them
 * all; the others see only the active ones. Read state is per user (`announcement_reads`).
 */
interface AnnouncementRow {
  id: number;
  companyId: number;
  title: string;
  text: string;
  priority: number;
  status: boolean;
  mediaPath: string | null;
  mediaName: string | null;
  createdAt: Date;
  updatedAt: Date;
}

const COLUMNS = `id, "companyId", title, text, priority, status, "mediaPath", "mediaName",
  "createdAt", "updatedAt"`;

const answerOf = (app: AppContext, req: Request, row: AnnouncementRow): AnnouncementAnswer =>
  withSignedMedia(
    app,
    row.companyId,
    {
      id: row.id,
      title: row.title,
      text: row.text,
      priority: row.priority,
      status: row.status,
      mediaPath: row.mediaPath,
      mediaName: row.mediaName,
      mediaUrl: row.mediaPath ? mediaUrl(row.mediaPath) : null,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    },
    mediaBase(app, req),
  );

async function findAnnouncement(app: AppContext, id: number): Promise<AnnouncementRow> {
  const [row] = (await app.ds.query(`SELECT ${COLUMNS} FROM announcements WHERE id = $1`, [
    id,
  ])) as AnnouncementRow[];
  if (!row) throw new AppError('ERR_NO_ANNOUNCEMENT_FOUND');
  return row;
}

/** Active announcements the user has not seen since they last opened the popover. */
async function unreadOf(app: AppContext, user: AuthUser): Promise<number> {
  const [row] = (await app.ds.query(
    `SELECT count(*)::int AS n FROM announcements a
      WHERE a.status AND a.revision > COALESCE((SELECT r."lastRevision" FROM announcement_reads r
              WHERE r."userId" = $1 AND r."companyId" = $2), 0)`,
    [user.id, user.companyId],
  )) as { n: number }[];
  return row?.n ?? 0;
}

export function announcementsRoutes(app: AppContext): Router {
  const router = Router();

  /** Every signed-in socket hears an active announcement; an inactive or deleted one leaves. */
  const publish = (row: AnnouncementRow, req: Request, created = false) => {
    if (row.status) {
      app.realtime.toPlatform('announcement', {
        action: created ? 'create' : 'update',
        record: answerOf(app, req, row),
      });
    } else app.realtime.toPlatform('announcement', { action: 'delete', id: row.id });
  };

  /** Changes the row and draws a new revision (the dot comes back for everyone). */
  const change = async (id: number, values: Partial<AnnouncementRow>) => {
    const entries = Object.entries(values).filter(([, v]) => v !== undefined);
    const sets = entries.map(([k], i) => `"${k}" = $${i + 2}`);
    const [rows] = (await app.ds.query(
      `UPDATE announcements SET ${[...sets, `revision = nextval('announcement_revision_seq')`, `"updatedAt" = now()`].join(', ')}
        WHERE id = $1 RETURNING ${COLUMNS}`,
      [id, ...entries.map(([, v]) => v)],
    )) as [AnnouncementRow[], number];
    if (!rows[0]) throw new AppError('ERR_NO_ANNOUNCEMENT_FOUND');
    return rows[0];
  };

  serve(router, app, api.listAnnouncements, async ({ user, query, req }) => {
    const params: unknown[] = [];
    const where: string[] = [];
    if (!user.super) where.push('status');
    if (query.searchParam) {
      params.push(`%${query.searchParam}%`);
      where.push(`(title ILIKE $${params.length} OR text ILIKE $${params.length})`);
    }
    const rows = (await app.ds.query(
      `SELECT ${COLUMNS}, count(*) OVER ()::int AS total FROM announcements
        ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
        ORDER BY id DESC
        LIMIT ${ANNOUNCEMENTS_PAGE_SIZE} OFFSET ${(query.pageNumber - 1) * ANNOUNCEMENTS_PAGE_SIZE}`,
      params,
    )) as (AnnouncementRow & { total: number })[];
    const count = rows[0]?.total ?? 0;
    return {
      records: rows.map((r) => answerOf(app, req, r)),
      count,
      hasMore: count > query.pageNumber * ANNOUNCEMENTS_PAGE_SIZE,
    };
  });

  serve(router, app, api.announcementsUnread, async ({ user }) => ({
    unread: await unreadOf(app, user),
  }));

  // The reader is the token's user; their row carries their company.
  serve(router, app, api.readAnnouncements, async ({ user }) => {
    await app.ds.query(
      `INSERT INTO announcement_reads ("userId", "companyId", "lastRevision")
       VALUES ($1, $2, (SELECT COALESCE(max(revision), 0) FROM announcements))
       ON CONFLICT ("userId") DO UPDATE
         SET "lastRevision" = GREATEST(announcement_reads."lastRevision", excluded."lastRevision"),
             "updatedAt" = now()
       WHERE announcement_reads."companyId" = excluded."companyId"`,
      [user.id, user.companyId],
    );
    return { unread: await unreadOf(app, user) };
  });

  serve(router, app, api.showAnnouncement, async ({ user, params, req }) => {
    const row = await findAnnouncement(app, params.id);
    if (!row.status && !user.super) throw new AppError('ERR_NO_ANNOUNCEMENT_FOUND');
    return answerOf(app, req, row);
  });

  serve(router, app, api.createAnnouncement, async ({ user, body, req }) => {
    const [row] = (await app.ds.query(
      `INSERT INTO announcements ("companyId", title, text, priority, status)
       VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}`,
      [user.companyId, body.title, body.text, body.priority, body.status],
    )) as AnnouncementRow[];
    publish(row!, req, true);
    return answerOf(app, req, row!);
  });

  serve(router, app, api.updateAnnouncement, async ({ params, body, req }) => {
    const row = await change(params.id, body);
    publish(row, req);
    return answerOf(app, req, row);
  });

  serve(router, app, api.deleteAnnouncement, async ({ params }) => {
    const [rows] = (await app.ds.query(
      `DELETE FROM announcements WHERE id = $1 RETURNING "companyId", "mediaPath"`,
      [params.id],
    )) as [{ companyId: number; mediaPath: string | null }[], number];
    const gone = rows[0];
    if (!gone) throw new AppError('ERR_NO_ANNOUNCEMENT_FOUND');
    await removeAttachment(app, gone.companyId, gone.mediaPath);
    app.realtime.toPlatform('announcement', { action: 'delete', id: params.id });
    return { message: 'Announcement deleted' };
  });

  // Secondary §5: png, jpg, jpeg only; the file is checked (declared type and first bytes) by
  // the shared upload path and kept in the author's company folder.
  serve(router, app, api.attachAnnouncementMedia, async ({ params, req, res }) => {
    const before = await findAnnouncement(app, params.id);
    const file = await receiveFile(app, req, res);
    if (!(ANNOUNCEMENT_IMAGE_TYPES as readonly string[]).includes(file.mimetype)) {
      await discardUploads([file]);
      throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE');
    }
    const attachment = await storeAttachment(app, before.companyId, file);
    const row = await change(params.id, attachment);
    await removeAttachment(app, before.companyId, before.mediaPath);
    publish(row, req);
    return { mensagem: 'Arquivo Anexado', record: answerOf(app, req, row) };
  });

  serve(router, app, api.removeAnnouncementMedia, async ({ params, req }) => {
    const before = await findAnnouncement(app, params.id);
    const row = await change(params.id, { mediaPath: null, mediaName: null });
    await removeAttachment(app, before.companyId, before.mediaPath);
    publish(row, req);
    return { mensagem: 'Arquivo excluído', record: answerOf(app, req, row) };
  });

  return router;
}
