import type { QueueOptionInput, QueueOptionUpdate } from '@atende/shared';
import { IsNull } from 'typeorm';
import { AppError } from '../../http/errors.js';
import type { TenantScope } from '../../http/tenant.js';
import { mediaUrl } from '../../whatsapp/media.js';
import { QueueEntity } from '../queues/index.js';
import { QueueOptionEntity, type QueueOption } from './queue-option.entity.js';

export interface QueueOptionNode extends QueueOption {
  mediaUrl: string | null;
  children: QueueOptionNode[];
}

/** Options sort by their number as a number ("2" before "10"). */
export const byOption = (a: { option: string }, b: { option: string }) =>
  Number(a.option) - Number(b.option) || a.option.localeCompare(b.option);

/** The nodes under `parentId` (null: top level) of a queue, each with its whole subtree. */
export async function optionTree(
  scope: TenantScope,
  queueId: number,
  parentId: number | null,
): Promise<QueueOptionNode[]> {
  await scope.repo(QueueEntity, 'ERR_NO_QUEUE_FOUND').get(queueId);
  const rows = await scope.repo(QueueOptionEntity).find({ queueId });
  const nodes = new Map<number, QueueOptionNode>(
    rows.map((r) => [
      r.id,
      { ...r, mediaUrl: r.mediaPath ? mediaUrl(r.mediaPath) : null, children: [] },
    ]),
  );
  const level: QueueOptionNode[] = [];
  for (const node of nodes.values()) {
    if (node.parentId === parentId) level.push(node);
    if (node.parentId !== null) nodes.get(node.parentId)?.children.push(node);
  }
  for (const node of nodes.values()) node.children.sort(byOption);
  return level.sort(byOption);
}

async function checkPlacement(
  scope: TenantScope,
  queueId: number,
  parentId: number | null,
  option: string,
  exceptId = 0,
) {
  if (parentId !== null) {
    const parent = await scope.repo(QueueOptionEntity, 'ERR_NO_QUEUE_OPTION_FOUND').get(parentId);
    if (parent.queueId !== queueId) throw new AppError('ERR_NO_QUEUE_OPTION_FOUND');
  }
  const siblings = await scope
    .repo(QueueOptionEntity)
    .find({ queueId, parentId: parentId ?? IsNull(), option });
  // Two siblings with one number would make the customer's answer ambiguous.
  if (siblings.some((s) => s.id !== exceptId)) {
    throw new AppError('ERR_VALIDATION', { details: 'option' });
  }
}

export async function createOption(scope: TenantScope, input: QueueOptionInput) {
  await scope.repo(QueueEntity, 'ERR_NO_QUEUE_FOUND').get(input.queueId);
  await checkPlacement(scope, input.queueId, input.parentId, input.option);
  return scope.repo(QueueOptionEntity).create({
    queueId: input.queueId,
    parentId: input.parentId,
    title: input.title,
    message: input.message,
    option: input.option,
    mediaPath: null,
    mediaName: null,
  });
}

/** The ids of a node and everything under it (a node cannot move below itself). */
async function subtreeIds(scope: TenantScope, queueId: number, rootId: number) {
  const rows = await scope.repo(QueueOptionEntity).find({ queueId });
  const ids = new Set([rootId]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const r of rows) {
      if (r.parentId !== null && ids.has(r.parentId) && !ids.has(r.id)) {
        ids.add(r.id);
        grew = true;
      }
    }
  }
  return ids;
}

export async function updateOption(scope: TenantScope, id: number, input: QueueOptionUpdate) {
  const repo = scope.repo(QueueOptionEntity, 'ERR_NO_QUEUE_OPTION_FOUND');
  const current = await repo.get(id);
  const parentId = input.parentId !== undefined ? input.parentId : current.parentId;
  const option = input.option ?? current.option;
  if (parentId !== null && (await subtreeIds(scope, current.queueId, id)).has(parentId)) {
    throw new AppError('ERR_VALIDATION', { details: 'parentId' });
  }
  await checkPlacement(scope, current.queueId, parentId, option, id);
  return repo.update(id, {
    parentId,
    option,
    ...(input.title !== undefined && { title: input.title }),
    ...(input.message !== undefined && { message: input.message }),
  });
}
