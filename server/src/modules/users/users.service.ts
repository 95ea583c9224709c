import argon2 from 'argon2';
import { In, type EntityManager } from 'typeorm';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import type { TenantScope } from '../../http/tenant.js';
import type { AuthUser } from '../auth/index.js';
import { CompanyEntity } from '../companies/index.js';
import { PlanEntity } from '../plans/index.js';
import { QueueEntity } from '../queues/index.js';
import { visibleSettings } from '../settings/index.js';
import { publishSessionsEnded } from '../auth/index.js';
import { refreshUserSockets } from '../../realtime/revoke.js';
import { UserEntity, type User } from './user.entity.js';
import type { UserInput, UserUpdate } from '@atende/shared';

export const hashPassword = (password: string): Promise<string> =>
  argon2.hash(password, { type: argon2.argon2id });

export const verifyPassword = (hash: string, password: string): Promise<boolean> =>
  argon2.verify(hash, password).catch(() => false);

export interface QueueRef {
  id: number;
  name: string;
  color: string;
}

/** Queues of each user, in one query. */
export async function queuesOfUsers(
  db: AppContext['ds'] | EntityManager,
  userIds: number[],
): Promise<Map<number, QueueRef[]>> {
  const result = new Map<number, QueueRef[]>(userIds.map((id) => [id, []]));
  if (userIds.length === 0) return result;
  const rows: (QueueRef & { userId: number })[] = await db.query(
    `SELECT uq."userId", q.id, q.name, q.color FROM user_queues uq
       JOIN queues q ON q.id = uq."queueId" WHERE uq."userId" = ANY($1) ORDER BY q.name`,
    [userIds],
  );
  for (const { userId, ...queue } of rows) result.get(userId)?.push(queue);
  return result;
}

export function publicUser(user: User, queues: QueueRef[]) {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    profile: user.profile,
    super: user.super,
    companyId: user.companyId,
    whatsappId: user.whatsappId,
    allTicket: user.allTicket,
    online: user.online,
    queues,
    createdAt: user.createdAt,
    updatedAt: user.updatedAt,
  };
}

export type PublicUser = ReturnType<typeof publicUser>;

/** The signed-in user with company due date and settings: what login and /auth/me answer. */
export async function sessionUser(app: AppContext, userId: number) {
  const user = await app.ds.getRepository(UserEntity).findOneByOrFail({ id: userId });
  const company = await app.ds.getRepository(CompanyEntity).findOneByOrFail({ id: user.companyId });
  const [queues, settings] = await Promise.all([
    queuesOfUsers(app.ds, [user.id]),
    app.settings.list(user.companyId),
  ]);
  return {
    ...publicUser(user, queues.get(user.id) ?? []),
    company: {
      id: company.id,
      name: company.name,
      dueDate: company.dueDate,
      planId: company.planId,
      settings: visibleSettings('session', settings).map(({ key, value }) => ({ key, value })),
    },
  };
}

async function checkQueues(scope: TenantScope, queueIds: number[] | undefined): Promise<void> {
  if (!queueIds?.length) return;
  const found = await scope.repo(QueueEntity).count({ id: In(queueIds) });
  if (found !== new Set(queueIds).size)
    throw new AppError('ERR_VALIDATION', { details: 'queueIds' });
}

async function setQueues(manager: EntityManager, userId: number, queueIds: number[]) {
  await manager.query('DELETE FROM user_queues WHERE "userId" = $1', [userId]);
  if (queueIds.length) {
    await manager.query(
      'INSERT INTO user_queues ("userId", "queueId") SELECT $1, unnest($2::int[]) ON CONFLICT DO NOTHING',
      [userId, [...new Set(queueIds)]],
    );
  }
}

async function emailTaken(app: AppContext, email: string, exceptId?: number): Promise<boolean> {
  const rows: unknown[] = await app.ds.query(
    'SELECT 1 FROM users WHERE lower(email) = lower($1) AND id <> $2',
    [email, exceptId ?? 0],
  );
  return rows.length > 0;
}

/** Plan limit on users; the company row is locked so two creates cannot both pass. */
async function checkUserLimit(manager: EntityManager, companyId: number): Promise<void> {
  const company = await manager
    .getRepository(CompanyEntity)
    .findOne({ where: { id: companyId }, lock: { mode: 'pessimistic_write' } });
  if (!company?.planId) return;
  const plan = await manager.getRepository(PlanEntity).findOneBy({ id: company.planId });
  const count = await manager.getRepository(UserEntity).countBy({ companyId });
  if (plan && count >= plan.users) throw new AppError('ERR_PLAN_LIMIT_USERS');
}

export async function createUser(app: AppContext, scope: TenantScope, input: UserInput) {
  if (await emailTaken(app, input.email)) throw new AppError('ERR_EMAIL_ALREADY_EXISTS');
  await checkQueues(scope, input.queueIds);
  const passwordHash = await hashPassword(input.password);
  const user = await app.ds.transaction(async (manager) => {
    await checkUserLimit(manager, scope.companyId);
    const created = await scope
      .with(manager)
      .repo(UserEntity)
      .create({
        name: input.name,
        email: input.email,
        passwordHash,
        profile: input.profile ?? 'user',
        whatsappId: input.whatsappId ?? null,
        allTicket: input.allTicket ?? 'desabled',
        super: false,
        tokenVersion: 0,
        online: false,
        resetAttempts: 0,
      });
    await setQueues(manager, created.id, input.queueIds ?? []);
    return created;
  });
  return publicUser(user, (await queuesOfUsers(app.ds, [user.id])).get(user.id) ?? []);
}

/**
 * A super user's account (password, e-mail, profile, deletion) is theirs alone: an admin of the
 * platform company must not be able to take it over (issue 11 item 2).
 */
function assertMayManage(actor: AuthUser, target: Pick<User, 'id' | 'super'>): void {
  if (target.super && actor.id !== target.id) throw new AppError('ERR_NO_PERMISSION');
}

/** Deletes a user of the caller's company; never oneself, never a super user. */
export async function deleteUser(scope: TenantScope, actor: AuthUser, id: number): Promise<void> {
  if (id === actor.id) throw new AppError('ERR_CANNOT_DELETE_SELF');
  const target = await scope.repo(UserEntity, 'ERR_NO_USER_FOUND').get(id);
  assertMayManage(actor, target);
  await scope.repo(UserEntity, 'ERR_NO_USER_FOUND').delete(id);
}

/**
 * Admins change anything of a user of their company; others change only their own name, e-mail
 * and password (core §6: profile, queues, connection and allTicket need admin permissions).
 */
export async function updateUser(
  app: AppContext,
  scope: TenantScope,
  actor: AuthUser,
  id: number,
  input: UserUpdate,
) {
  const isAdmin = actor.profile === 'admin' || actor.super;
  if (!isAdmin && actor.id !== id) throw new AppError('ERR_NO_PERMISSION');
  const current = await scope.repo(UserEntity, 'ERR_NO_USER_FOUND').get(id);
  assertMayManage(actor, current);
  if (!isAdmin) {
    const adminOnly =
      (input.profile !== undefined && input.profile !== current.profile) ||
      (input.allTicket !== undefined && input.allTicket !== current.allTicket) ||
      (input.whatsappId !== undefined && input.whatsappId !== current.whatsappId) ||
      input.queueIds !== undefined;
    if (adminOnly) throw new AppError('ERR_NO_PERMISSION');
  }
  if (input.email && (await emailTaken(app, input.email, id))) {
    throw new AppError('ERR_EMAIL_ALREADY_EXISTS');
  }
  await checkQueues(scope, input.queueIds);
  const { password, queueIds, ...fields } = input;
  const changes: Partial<User> = { ...fields };
  if (password) {
    changes.passwordHash = await hashPassword(password);
    changes.tokenVersion = current.tokenVersion + 1;
  }
  const user = await app.ds.transaction(async (manager) => {
    const saved = await scope
      .with(manager)
      .repo(UserEntity, 'ERR_NO_USER_FOUND')
      .update(id, changes);
    if (queueIds) await setQueues(manager, id, queueIds);
    return saved;
  });
  if (changes.tokenVersion !== undefined) {
    await publishSessionsEnded(app, {
      userId: id,
      sessionId: null,
      tokenVersion: changes.tokenVersion,
      reason: 'password',
    });
  }
  await refreshUserSockets(app, id); // new profile/queues re-room them; a new password ends them
  return publicUser(user, (await queuesOfUsers(app.ds, [id])).get(id) ?? []);
}
