import type { FileListAnswer } from '@atende/shared';
import type { EntityManager } from 'typeorm';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { mediaUrl } from '../../whatsapp/media.js';

type Db = Pick<EntityManager, 'query'>;

export interface FileListOptionRow {
  id: number;
  fileListId: number;
  name: string;
  path: string | null;
  mediaType: string | null;
}

export interface FileListRow {
  id: number;
  companyId: number;
  userId: number | null;
  name: string;
  message: string;
  createdAt: Date;
  updatedAt: Date;
}

export type FileListView = Omit<FileListAnswer, 'createdAt' | 'updatedAt'> & {
  createdAt: Date;
  updatedAt: Date;
};

const optionView = (o: FileListOptionRow) => ({
  id: o.id,
  fileListId: o.fileListId,
  name: o.name,
  path: o.path,
  mediaType: o.mediaType,
  mediaUrl: o.path ? mediaUrl(o.path) : null,
});

/** File lists with their options (ids of the company only). */
export async function fileListViews(
  db: Db,
  companyId: number,
  lists: FileListRow[],
): Promise<FileListView[]> {
  if (!lists.length) return [];
  const options = (await db.query(
    `SELECT id, "fileListId", name, path, "mediaType" FROM file_list_options
      WHERE "companyId" = $1 AND "fileListId" = ANY($2::int[]) ORDER BY id`,
    [companyId, lists.map((l) => l.id)],
  )) as FileListOptionRow[];
  return lists.map((l) => ({
    ...l,
    options: options.filter((o) => o.fileListId === l.id).map(optionView),
  }));
}

/**
 * One file list of the company with its options, each with the authenticated media route that
 * serves its file (`/media/<file>`); ERR_NO_FILE_LIST_FOUND otherwise. For campaigns.
 */
export async function fileListOf(
  db: Db,
  companyId: number,
  id: number,
  lock = false,
): Promise<FileListView> {
  const [row] = (await db.query(
    `SELECT id, "companyId", "userId", name, message, "createdAt", "updatedAt" FROM file_lists
      WHERE id = $1 AND "companyId" = $2 ${lock ? 'FOR UPDATE' : ''}`,
    [id, companyId],
  )) as FileListRow[];
  if (!row) throw new AppError('ERR_NO_FILE_LIST_FOUND');
  return (await fileListViews(db, companyId, [row]))[0]!;
}

type Wire<T> = { [K in keyof T]: T[K] extends Date ? string : T[K] };

/** Live updates of file lists (secondary §4): `company-{id}-file`. */
export function emitFileList(
  app: AppContext,
  companyId: number,
  action: 'create' | 'update' | 'delete',
  row: FileListView | { id: number },
): void {
  app.realtime.toCompany(companyId, 'file', {
    action,
    ...('name' in row && { record: row as unknown as Wire<FileListAnswer> }),
    id: row.id,
  });
}
