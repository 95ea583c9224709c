import { Router } from 'express';
import { dashboardEndpoints as api } from '@atende/shared';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { serve } from '../../http/route.js';

/** The range of a dashboard filter: the last N days, or from/to dates (either may be open). */
function rangeOf(q: { days?: number; date_from?: string; date_to?: string }): [string, string] {
  if (q.days === undefined && !q.date_from && !q.date_to)
    throw new AppError('ERR_DASHBOARD_FILTER');
  if (q.days !== undefined) {
    const from = new Date(Date.now() - q.days * 86_400_000).toISOString();
    return [from, new Date(Date.now() + 60_000).toISOString()];
  }
  const from = q.date_from ? `${q.date_from.slice(0, 10)}T00:00:00` : '1970-01-01T00:00:00';
  const to = q.date_to ? `${q.date_to.slice(0, 10)}T23:59:59.999` : '9999-12-31T00:00:00';
  return [from, to];
}

const minutes = (field: string) =>
  `COALESCE(round(avg(EXTRACT(EPOCH FROM (${field})) / 60)::numeric, 1), 0)::float8`;

export function dashboardRoutes(app: AppContext): Router {
  const router = Router();

  serve(router, app, api.dashboard, async ({ user, query }) => {
    const [from, to] = rangeOf(query);
    const c = user.companyId;
    const [counters] = (await app.ds.query(
      `SELECT count(*) FILTER (WHERE status = 'open')::int AS "supportHappening",
                count(*) FILTER (WHERE status = 'pending')::int AS "supportPending",
                count(*) FILTER (WHERE status = 'closed')::int AS "supportFinished",
                ${minutes(`"closedAt" - "acceptedAt"`)} AS "avgSupportTime",
                ${minutes(`"acceptedAt" - "createdAt"`)} AS "avgWaitTime"
           FROM tickets WHERE "companyId" = $1 AND "createdAt" BETWEEN $2 AND $3`,
      [c, from, to],
    )) as Record<string, number>[];
    // rating: the attendant's average customer rating (1–3) in the range; null without any.
    const attendants = (await app.ds.query(
      `SELECT u.id, u.name, u.online,
                (SELECT round(avg(r.rate)::numeric, 1)::float8 FROM user_ratings r
                  WHERE r."userId" = u.id AND r."companyId" = $1
                    AND r."createdAt" BETWEEN $2 AND $3) AS rating,
                ${minutes(`t."closedAt" - t."acceptedAt"`)} AS "avgSupportTime",
                count(t.id)::int AS tickets
           FROM users u LEFT JOIN tickets t ON t."userId" = u.id AND t."createdAt" BETWEEN $2 AND $3
          WHERE u."companyId" = $1 GROUP BY u.id ORDER BY u.name`,
      [c, from, to],
    )) as object[];
    const result: Record<string, unknown> = { counters, attendants };
    if (user.super) {
      const [platform] = (await app.ds.query(
        `SELECT (SELECT count(*) FROM whatsapps WHERE status = 'CONNECTED')::int AS "totalWhatsappSessions",
                  (SELECT count(*) FROM companies)::int AS "totalCompanies"`,
      )) as Record<string, number>[];
      Object.assign(counters!, platform);
    }
    return result;
  });

  const chartRange = (q: { initialDate?: string; finalDate?: string }) => {
    if (!q.initialDate && !q.finalDate) throw new AppError('ERR_DASHBOARD_FILTER');
    return rangeOf({ date_from: q.initialDate, date_to: q.finalDate });
  };

  serve(router, app, api.ticketsUsers, async ({ user, query }) => {
    const [from, to] = chartRange(query);
    const data = (await app.ds.query(
      `SELECT u.name AS nome, count(t.id)::int AS quantidade
           FROM tickets t JOIN users u ON u.id = t."userId"
          WHERE t."companyId" = $1 AND t."createdAt" BETWEEN $2 AND $3
          GROUP BY u.id ORDER BY quantidade DESC, u.name`,
      [user.companyId, from, to],
    )) as { quantidade: number }[];
    return { data, count: data.reduce((s, r) => s + r.quantidade, 0) };
  });

  serve(router, app, api.ticketsDay, async ({ user, query }) => {
    const [from, to] = chartRange(query);
    // One day: by hour ('horario'); a period: by day ('data').
    const oneDay = query.initialDate && query.initialDate === query.finalDate;
    const bucket = oneDay
      ? `to_char("createdAt", 'HH24') || ':00'`
      : `to_char("createdAt", 'YYYY-MM-DD')`;
    const data = (await app.ds.query(
      `SELECT ${bucket} AS ${oneDay ? 'horario' : 'data'}, count(*)::int AS total
           FROM tickets WHERE "companyId" = $1 AND "createdAt" BETWEEN $2 AND $3
          GROUP BY 1 ORDER BY 1`,
      [user.companyId, from, to],
    )) as { total: number }[];
    return { data, count: data.reduce((s, r) => s + r.total, 0) };
  });

  return router;
}
