import { Router } from 'express';
import { fileListEndpoints as api, fileListUploadFields } from '@atende/shared';
import type { EntityManager } from 'typeorm';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { PAGE_SIZE } from '../../http/paging.js';
import { serve } from '../../http/route.js';
import { discardUploads, receiveUploads } from '../../whatsapp/media-upload.js';
import { removeAttachment, storeAttachment } from '../queues/index.js';
import {
  emitFileList,
  fileListOf,
  fileListViews,
  type FileListOptionRow,
  type FileListRow,
} from './files.service.js';

const LIST_COLUMNS = `id, "companyId", "userId", name, message, "createdAt", "updatedAt"`;

/**
 * Writes a list's options as the form sent them: named ones updated, new ones added, the rest
 * removed; answers the paths of the removed files (deleted after commit). An option id of
 * another list (or company) is ERR_NO_FILE_LIST_FOUND.
 */
async function writeOptions(
  tx: EntityManager,
  companyId: number,
  fileListId: number,
  options: readonly { id?: number; name: string }[],
): Promise<string[]> {
  const current = (await tx.query(
    `SELECT id, path FROM file_list_options WHERE "companyId" = $1 AND "fileListId" = $2`,
    [companyId, fileListId],
  )) as Pick<FileListOptionRow, 'id' | 'path'>[];
  const known = new Set(current.map((o) => o.id));
  const kept = new Set<number>();
  for (const option of options) {
    if (option.id !== undefined) {
      if (!known.has(option.id)) throw new AppError('ERR_NO_FILE_LIST_FOUND');
      kept.add(option.id);
      await tx.query(`UPDATE file_list_options SET name = $2, "updatedAt" = now() WHERE id = $1`, [
        option.id,
        option.name,
      ]);
    } else {
      await tx.query(
        `INSERT INTO file_list_options ("companyId", "fileListId", name) VALUES ($1, $2, $3)`,
        [companyId, fileListId, option.name],
      );
    }
  }
  const gone = current.filter((o) => !kept.has(o.id));
  if (gone.length) {
    await tx.query(`DELETE FROM file_list_options WHERE id = ANY($1::int[])`, [
      gone.map((o) => o.id),
    ]);
  }
  return gone.flatMap((o) => (o.path ? [o.path] : []));
}

/** File lists (secondary §2, §7): `/files`, its options and their files. */
export function filesRoutes(app: AppContext): Router {
  const router = Router();
  const removeFiles = async (companyId: number, paths: string[]) => {
    for (const p of paths) await removeAttachment(app, companyId, p);
  };

  serve(router, app, api.listFileLists, async ({ scope, query }) => {
    const search = query.searchParam ? `%${query.searchParam}%` : null;
    const rows = (await app.ds.query(
      `SELECT ${LIST_COLUMNS}, count(*) OVER ()::int AS total FROM file_lists
        WHERE "companyId" = $1 AND ($2::text IS NULL OR name ILIKE $2)
        ORDER BY lower(name), id LIMIT $3 OFFSET $4`,
      [scope.companyId, search, PAGE_SIZE, (query.pageNumber - 1) * PAGE_SIZE],
    )) as (FileListRow & { total: number })[];
    const count = rows[0]?.total ?? 0;
    const files = await fileListViews(
      app.ds,
      scope.companyId,
      rows.map(({ total: _t, ...r }) => r),
    );
    return {
      files,
      count,
      hasMore: rows.length === PAGE_SIZE && count > query.pageNumber * PAGE_SIZE,
    };
  });

  serve(router, app, api.showFileList, ({ scope, params }) =>
    fileListOf(app.ds, scope.companyId, params.id),
  );

  serve(router, app, api.createFileList, async ({ user, scope, body }) => {
    const view = await app.ds.transaction(async (tx) => {
      const [row] = (await tx.query(
        `INSERT INTO file_lists ("companyId", "userId", name, message) VALUES ($1, $2, $3, $4)
         RETURNING id`,
        [scope.companyId, user.id, body.name, body.message],
      )) as { id: number }[];
      await writeOptions(
        tx,
        scope.companyId,
        row!.id,
        body.options.map(({ name }) => ({ name })),
      );
      return fileListOf(tx, scope.companyId, row!.id);
    });
    emitFileList(app, scope.companyId, 'create', view);
    return view;
  });

  serve(router, app, api.updateFileList, async ({ scope, params, body }) => {
    const { view, gone } = await app.ds.transaction(async (tx) => {
      await fileListOf(tx, scope.companyId, params.id, true);
      await tx.query(
        `UPDATE file_lists SET name = $3, message = $4, "updatedAt" = now()
          WHERE id = $1 AND "companyId" = $2`,
        [params.id, scope.companyId, body.name, body.message],
      );
      const removed = await writeOptions(tx, scope.companyId, params.id, body.options);
      return { view: await fileListOf(tx, scope.companyId, params.id), gone: removed };
    });
    await removeFiles(scope.companyId, gone);
    emitFileList(app, scope.companyId, 'update', view);
    return view;
  });

  serve(router, app, api.deleteFileList, async ({ scope, params }) => {
    const list = await fileListOf(app.ds, scope.companyId, params.id);
    await app.ds.query(`DELETE FROM file_lists WHERE id = $1 AND "companyId" = $2`, [
      params.id,
      scope.companyId,
    ]);
    await removeFiles(
      scope.companyId,
      list.options.flatMap((o) => (o.path ? [o.path] : [])),
    );
    emitFileList(app, scope.companyId, 'delete', { id: params.id });
    return { message: 'File list deleted' };
  });

  // The files go through the checked upload path (declared type against the first bytes,
  // storage quota), after route() authenticated the caller and the list is known to be theirs.
  serve(router, app, api.uploadFileList, async ({ scope, params, req, res }) => {
    await fileListOf(app.ds, scope.companyId, params.id);
    const files = await receiveUploads(app, req, res, {
      fields: ['files', 'file', 'medias'],
      maxFiles: 10,
    });
    try {
      const parsed = fileListUploadFields.safeParse(req.body ?? {});
      if (!parsed.success || !files.length) {
        throw new AppError('ERR_VALIDATION', {
          details: [{ path: 'body.files', message: 'files, with id or name for each' }],
        });
      }
      const fields = parsed.data;
      for (const [i, file] of files.entries()) {
        const optionId = Number(fields.id[i]);
        let before: FileListOptionRow | undefined;
        if (fields.id[i] !== undefined && fields.id[i] !== '') {
          [before] = (await app.ds.query(
            `SELECT id, "fileListId", name, path, "mediaType" FROM file_list_options
              WHERE id = $1 AND "companyId" = $2 AND "fileListId" = $3`,
            [Number.isInteger(optionId) ? optionId : 0, scope.companyId, params.id],
          )) as FileListOptionRow[];
          if (!before) throw new AppError('ERR_NO_FILE_LIST_FOUND');
        }
        const stored = await storeAttachment(app, scope.companyId, file);
        const mediaType = (fields.mediaType[i] || file.mimetype).slice(0, 100);
        if (before) {
          await app.ds.query(
            `UPDATE file_list_options SET path = $2, "mediaType" = $3, "updatedAt" = now()
              WHERE id = $1`,
            [before.id, stored.mediaPath, mediaType],
          );
          await removeAttachment(app, scope.companyId, before.path);
        } else {
          await app.ds.query(
            `INSERT INTO file_list_options ("companyId", "fileListId", name, path, "mediaType")
             VALUES ($1, $2, $3, $4, $5)`,
            [
              scope.companyId,
              params.id,
              (fields.name[i] || stored.mediaName).slice(0, 255),
              stored.mediaPath,
              mediaType,
            ],
          );
        }
      }
    } finally {
      await discardUploads(files);
    }
    const view = await fileListOf(app.ds, scope.companyId, params.id);
    emitFileList(app, scope.companyId, 'update', view);
    return view;
  });

  return router;
}
