import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { In, type EntityManager } from 'typeorm';
import {
  SECRET_MASK,
  WHATSAPP_DEFAULTS,
  type WhatsappCreate,
  type WhatsappUpdate,
} from '@atende/shared';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import type { TenantScope } from '../../http/tenant.js';
import { CompanyEntity } from '../companies/index.js';
import { PlanEntity } from '../plans/index.js';
import { QueueEntity } from '../queues/index.js';
import { WhatsappEntity, type Whatsapp } from './whatsapp.entity.js';

/** A connection's API token: random, URL-safe, 43 characters. */
export const newConnectionToken = () => randomBytes(32).toString('base64url');

/**
 * How a connection's API token is kept (issue 18 item 3): only its SHA-256 (`sha256:<hex>`) and
 * its last 4 characters. A random 256-bit token needs no slow hash; a chosen one is at least 16
 * characters.
 */
export const hashConnectionToken = (token: string): string =>
  `sha256:${createHash('sha256').update(token, 'utf8').digest('hex')}`;

/** Whether a presented token is the stored one, compared in constant time. */
export function connectionTokenMatches(presented: string, stored: string): boolean {
  const a = Buffer.from(hashConnectionToken(presented));
  const b = Buffer.from(stored);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The columns a token is stored in, and the plain token to answer once. */
export function storedToken(plain: string) {
  return { token: hashConnectionToken(plain), tokenLast4: plain.slice(-4), plain };
}

/**
 * The token field of a save: empty asks for a new random token, the masked form (`••••abcd`, as
 * answered) keeps the stored one, anything else is the admin's own token.
 */
function tokenChange(token: string | undefined) {
  if (token === undefined || token.startsWith(SECRET_MASK)) return undefined;
  return storedToken(token || newConnectionToken());
}

export interface QueueOfWhatsapp {
  id: number;
  name: string;
  color: string;
  greetingMessage: string;
}

export async function queuesOfWhatsapps(
  db: AppContext['ds'] | EntityManager,
  ids: number[],
): Promise<Map<number, QueueOfWhatsapp[]>> {
  const result = new Map<number, QueueOfWhatsapp[]>(ids.map((id) => [id, []]));
  if (!ids.length) return result;
  const rows: (QueueOfWhatsapp & { whatsappId: number })[] = await db.query(
    `SELECT wq."whatsappId", q.id, q.name, q.color, q."greetingMessage"
       FROM whatsapp_queues wq JOIN queues q ON q.id = wq."queueId"
      WHERE wq."whatsappId" = ANY($1) ORDER BY q."orderQueue" NULLS LAST, q.name`,
    [ids],
  );
  for (const { whatsappId, ...queue } of rows) result.get(whatsappId)?.push(queue);
  return result;
}

/**
 * What the API answers. The token only to admins (it lets its holder send messages), and only
 * masked with its last 4 characters, except right after it was set (`plainToken`), once.
 */
export function publicWhatsapp(
  w: Whatsapp,
  queues: QueueOfWhatsapp[],
  withToken: boolean,
  plainToken?: string,
) {
  const { token: _hash, tokenLast4, ...rest } = w as Whatsapp & { sessionEpoch?: unknown };
  delete (rest as { sessionEpoch?: unknown }).sessionEpoch;
  const token = plainToken ?? (tokenLast4 ? `${SECRET_MASK}${tokenLast4}` : '');
  return { ...rest, ...(withToken && { token, tokenLast4 }), queues };
}

async function checkQueues(scope: TenantScope, ids: (number | null | undefined)[]) {
  const wanted = [...new Set(ids.filter((id): id is number => typeof id === 'number'))];
  if (!wanted.length) return;
  const found = await scope.repo(QueueEntity).count({ id: In(wanted) });
  if (found !== wanted.length) throw new AppError('ERR_VALIDATION', { details: 'queueIds' });
}

function checkGreeting(queueIds: number[], greeting: string) {
  if (new Set(queueIds).size > 1 && !greeting.trim()) {
    throw new AppError('ERR_WAPP_GREETING_REQUIRED');
  }
}

async function nameTaken(manager: EntityManager, companyId: number, name: string, except = 0) {
  const rows: unknown[] = await manager.query(
    `SELECT 1 FROM whatsapps WHERE "companyId" = $1 AND lower(name) = lower($2) AND id <> $3`,
    [companyId, name, except],
  );
  return rows.length > 0;
}

async function setQueues(manager: EntityManager, whatsappId: number, queueIds: number[]) {
  await manager.query('DELETE FROM whatsapp_queues WHERE "whatsappId" = $1', [whatsappId]);
  if (queueIds.length) {
    await manager.query(
      `INSERT INTO whatsapp_queues ("whatsappId", "queueId") SELECT $1, unnest($2::int[])`,
      [whatsappId, [...new Set(queueIds)]],
    );
  }
}

/** Locks the company row so two creates cannot both pass the plan limit. */
async function checkConnectionLimit(manager: EntityManager, companyId: number) {
  const company = await manager
    .getRepository(CompanyEntity)
    .findOne({ where: { id: companyId }, lock: { mode: 'pessimistic_write' } });
  if (!company?.planId) return;
  const plan = await manager.getRepository(PlanEntity).findOneBy({ id: company.planId });
  const count = await manager.getRepository(WhatsappEntity).countBy({ companyId });
  if (plan && count >= plan.connections) throw new AppError('ERR_PLAN_LIMIT_CONNECTIONS');
}

async function clearOtherDefaults(manager: EntityManager, companyId: number, keep: number) {
  await manager.query(
    `UPDATE whatsapps SET "isDefault" = false WHERE "companyId" = $1 AND id <> $2 AND "isDefault"`,
    [companyId, keep],
  );
}

export async function createWhatsapp(app: AppContext, scope: TenantScope, input: WhatsappCreate) {
  const queueIds = input.queueIds ?? [];
  checkGreeting(queueIds, input.greetingMessage ?? '');
  await checkQueues(scope, [...queueIds, input.transferQueueId]);
  if (input.provider === 'simulator' && !app.config.SIMULATOR) {
    throw new AppError('ERR_VALIDATION', { details: 'provider' });
  }
  const created = await app.ds.transaction(async (manager) => {
    await checkConnectionLimit(manager, scope.companyId);
    if (await nameTaken(manager, scope.companyId, input.name)) {
      throw new AppError('ERR_WAPP_NAME_EXISTS');
    }
    const repo = scope.with(manager).repo(WhatsappEntity);
    // The first connection of a company becomes its default: one must always exist.
    const isDefault = input.isDefault === true || (await repo.count()) === 0;
    const { queueIds: _q, token, ...fields } = input;
    const { plain, ...tokenColumns } =
      tokenChange(token ?? '') ?? storedToken(newConnectionToken());
    const row = await repo.create({
      ...WHATSAPP_DEFAULTS,
      ...fields,
      ...tokenColumns,
      isDefault: false,
      status: 'OPENING',
    });
    if (isDefault) {
      await clearOtherDefaults(manager, scope.companyId, row.id);
      await manager.query(`UPDATE whatsapps SET "isDefault" = true WHERE id = $1`, [row.id]);
      row.isDefault = true;
    }
    await setQueues(manager, row.id, queueIds);
    return Object.assign(row, { plainToken: plain });
  });
  return created;
}

export async function updateWhatsapp(
  app: AppContext,
  scope: TenantScope,
  id: number,
  input: WhatsappUpdate,
) {
  return app.ds.transaction(async (manager) => {
    const repo = scope.with(manager).repo(WhatsappEntity, 'ERR_NO_WAPP_FOUND');
    const current = await repo.get(id);
    const queueIds =
      input.queueIds ?? (await queuesOfWhatsapps(manager, [id])).get(id)!.map((q) => q.id);
    checkGreeting(queueIds, input.greetingMessage ?? current.greetingMessage);
    await checkQueues(scope.with(manager), [...queueIds, input.transferQueueId]);
    if (input.provider === 'simulator' && !app.config.SIMULATOR) {
      throw new AppError('ERR_VALIDATION', { details: 'provider' });
    }
    if (input.name && (await nameTaken(manager, scope.companyId, input.name, id))) {
      throw new AppError('ERR_WAPP_NAME_EXISTS');
    }
    if (input.isDefault === false && current.isDefault) throw new AppError('ERR_NO_OTHER_WHATSAPP');
    const { queueIds: _q, token, isDefault, ...fields } = input;
    if (isDefault) await clearOtherDefaults(manager, scope.companyId, id);
    // An emptied token field asks for a new one; an empty token is never stored.
    const changed = tokenChange(token);
    const updated = await repo.update(id, {
      ...fields,
      ...(isDefault && { isDefault: true }),
      ...(changed && { token: changed.token, tokenLast4: changed.tokenLast4 }),
    });
    if (input.queueIds) await setQueues(manager, id, queueIds);
    return Object.assign(updated, { plainToken: changed?.plain });
  });
}

/**
 * Deletes a connection; when it was the default, the oldest remaining one becomes the default
 * (the rule that one must remain holds without making the user pick first).
 */
export async function deleteWhatsapp(app: AppContext, scope: TenantScope, id: number) {
  return app.ds.transaction(async (manager) => {
    const repo = scope.with(manager).repo(WhatsappEntity, 'ERR_NO_WAPP_FOUND');
    const current = await repo.get(id);
    await repo.delete(id);
    if (!current.isDefault) return { deleted: current, promoted: undefined };
    const [rows] = (await manager.query(
      `UPDATE whatsapps SET "isDefault" = true WHERE id =
         (SELECT id FROM whatsapps WHERE "companyId" = $1 ORDER BY id LIMIT 1) RETURNING id`,
      [scope.companyId],
    )) as [{ id: number }[], number];
    return { deleted: current, promoted: rows[0]?.id };
  });
}
