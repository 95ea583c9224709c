import { canOpenTicket, type Profile, type TicketViewer } from '@atende/shared';
import type { DataSource, EntityManager } from 'typeorm';
import { AppError } from '../../http/errors.js';
import type { FeedViewer } from '../changes/index.js';

export interface Viewer extends TicketViewer {
  companyId: number;
  name: string;
  super: boolean;
}

/** Who is looking: profile, queues and allTicket decide which tickets they see (core §4, §6). */
export async function loadViewer(
  db: DataSource | EntityManager,
  companyId: number,
  userId: number,
): Promise<Viewer> {
  const [row] = (await db.query(
    `SELECT u.id, u.name, u.profile, u.super, u."allTicket",
            COALESCE(array_agg(uq."queueId") FILTER (WHERE uq."queueId" IS NOT NULL), '{}') AS "queueIds"
       FROM users u LEFT JOIN user_queues uq ON uq."userId" = u.id
      WHERE u.id = $1 AND u."companyId" = $2 GROUP BY u.id`,
    [userId, companyId],
  )) as {
    id: number;
    name: string;
    profile: Profile;
    super: boolean;
    allTicket: 'enabled' | 'desabled';
    queueIds: number[];
  }[];
  if (!row) throw new AppError('ERR_SESSION_EXPIRED');
  // The super user sees its own company as an admin does.
  const profile: Profile = row.super ? 'admin' : row.profile;
  return { ...row, profile, companyId };
}

export const isAdmin = (viewer: Viewer): boolean => viewer.profile === 'admin';

/** 403 'Acesso não permitido' for a ticket of a queue the viewer does not have (core §4). */
export function assertCanOpen(viewer: Viewer, ticket: { queueId: number | null }): void {
  if (!canOpenTicket(viewer, ticket)) throw new AppError('ERR_TICKET_ACCESS_DENIED');
}

export const feedViewer = (viewer: Viewer): FeedViewer => ({
  userId: viewer.id,
  admin: isAdmin(viewer),
  queueIds: viewer.queueIds,
  allTicket: viewer.allTicket === 'enabled',
});

/**
 * SQL condition restricting tickets (alias `t`) to what the viewer may see; parameters are
 * appended to `params`.
 */
export function visibleTicketsSql(viewer: Viewer, params: unknown[]): string {
  if (isAdmin(viewer)) return 'TRUE';
  params.push(viewer.queueIds);
  const inQueues = `t."queueId" = ANY($${params.length}::int[])`;
  return viewer.allTicket === 'enabled' ? `(${inQueues} OR t."queueId" IS NULL)` : inQueues;
}
