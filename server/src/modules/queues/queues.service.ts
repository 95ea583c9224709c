import { DEFAULT_QUEUE_SCHEDULES, type QueueInput, type QueueUpdate } from '@atende/shared';
import type { EntityManager } from 'typeorm';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import type { TenantScope } from '../../http/tenant.js';
import { mediaUrl } from '../../whatsapp/media.js';
import { CompanyEntity } from '../companies/index.js';
import { PlanEntity } from '../plans/index.js';
import { QueueEntity, type Queue } from './queue.entity.js';

/** What the API answers for a queue: its row plus the URL of its attachment. */
export const publicQueue = (queue: Queue) => ({
  ...queue,
  mediaUrl: queue.mediaPath ? mediaUrl(queue.mediaPath) : null,
});

/** The company's queues in menu order (orderQueue, then name). */
export async function listQueues(scope: TenantScope): Promise<Queue[]> {
  return scope
    .repo(QueueEntity)
    .query('q')
    .orderBy('q."orderQueue"', 'ASC', 'NULLS LAST')
    .addOrderBy('q.name', 'ASC')
    .getMany();
}

async function checkUnique(scope: TenantScope, values: QueueUpdate, exceptId = 0) {
  const repo = scope.repo(QueueEntity);
  if (values.name !== undefined) {
    const taken = await repo
      .query('q')
      .andWhere('lower(q.name) = lower(:name) AND q.id <> :id', { name: values.name, id: exceptId })
      .getCount();
    if (taken) throw new AppError('ERR_QUEUE_NAME_ALREADY_EXISTS');
  }
  if (values.color !== undefined) {
    const taken = await repo
      .query('q')
      .andWhere('lower(q.color) = lower(:color) AND q.id <> :id', {
        color: values.color,
        id: exceptId,
      })
      .getCount();
    if (taken) throw new AppError('ERR_QUEUE_COLOR_ALREADY_EXISTS');
  }
}

/** Plan limit on queues; the company row is locked so two creates cannot both pass. */
async function checkQueueLimit(manager: EntityManager, companyId: number): Promise<void> {
  const company = await manager
    .getRepository(CompanyEntity)
    .findOne({ where: { id: companyId }, lock: { mode: 'pessimistic_write' } });
  if (!company?.planId) return;
  const plan = await manager.getRepository(PlanEntity).findOneBy({ id: company.planId });
  const count = await manager.getRepository(QueueEntity).countBy({ companyId });
  if (plan && count >= plan.queues) throw new AppError('ERR_PLAN_LIMIT_QUEUES');
}

/** The unique indexes still guard a race between the check and the write. */
function uniqueViolation(err: unknown): never {
  const detail = (err as { code?: string; constraint?: string }) ?? {};
  if (detail.code === '23505') {
    throw new AppError(
      detail.constraint?.includes('color')
        ? 'ERR_QUEUE_COLOR_ALREADY_EXISTS'
        : 'ERR_QUEUE_NAME_ALREADY_EXISTS',
    );
  }
  throw err;
}

export async function createQueue(
  app: AppContext,
  scope: TenantScope,
  input: QueueInput,
): Promise<Queue> {
  await checkUnique(scope, input);
  return app.ds
    .transaction(async (manager) => {
      await checkQueueLimit(manager, scope.companyId);
      return scope
        .with(manager)
        .repo(QueueEntity)
        .create({
          name: input.name,
          color: input.color,
          greetingMessage: input.greetingMessage,
          outOfHoursMessage: input.outOfHoursMessage,
          orderQueue: input.orderQueue ?? null,
          schedules: input.schedules?.length ? input.schedules : DEFAULT_QUEUE_SCHEDULES,
          promptId: input.promptId ?? null,
          integrationId: input.integrationId ?? null,
          mediaPath: null,
          mediaName: null,
        });
    })
    .catch(uniqueViolation);
}

export async function updateQueue(
  scope: TenantScope,
  id: number,
  input: QueueUpdate,
): Promise<Queue> {
  const repo = scope.repo(QueueEntity, 'ERR_NO_QUEUE_FOUND');
  await repo.get(id);
  await checkUnique(scope, input, id);
  const values: Partial<Queue> = {};
  for (const [key, value] of Object.entries(input)) {
    if (value !== undefined) Object.assign(values, { [key]: value });
  }
  return repo.update(id, values).catch(uniqueViolation);
}
