import type { CompanyEventName } from '@atende/shared';
import type { EntityManager } from 'typeorm';
import type { AppContext } from '../../context.js';
import { withRetry } from '../../db/transaction.js';
import { workerStarters } from '../../jobs/bullmq.js';
import { recordChanges, type Change, type ChangeEntity, type PendingChange } from './change-log.js';
import { sequencerOf, startChangeSweeper } from './sequencer.js';

const EVENT_OF: Record<ChangeEntity, CompanyEventName | null> = {
  ticket: 'ticket',
  message: 'appMessage',
  contact: 'contact',
  tag: 'tag',
  // Notes travel through the feed only; the drawer reloads them (no socket event in core §7).
  note: null,
};

/** Sends numbered changes as socket events, each carrying its change-feed number. */
export function publish(
  app: AppContext,
  companyId: number,
  changes: (Change & { seq: number })[],
): void {
  for (const change of changes) {
    const name = EVENT_OF[change.entity];
    if (!name) continue;
    const payload = { ...change.payload, seq: change.seq };
    if (change.ticketQueueId !== undefined) {
      app.realtime.toTicketViewers(companyId, change.ticketQueueId, name, payload);
    } else {
      app.realtime.toCompany(companyId, name, payload);
    }
  }
}

const sequencer = (app: AppContext) =>
  sequencerOf(app, (companyId, changes) => publish(app, companyId, changes));

/** Numbers and publishes changes a caller committed itself (see messages/inbound-fast.ts). */
export const publishCommitted = (app: AppContext, companyId: number, pending: PendingChange[]) =>
  sequencer(app).sequence(companyId, pending);

/**
 * Runs `work` in one transaction and commits it (again, from the start, when Postgres aborted it
 * for a deadlock or a serialization failure: `work` must only write through `tx`); the changes it pushed are then numbered and sent
 * as socket events, which `published` waits for. Lets a caller go on with post-commit work while
 * its changes are numbered.
 */
export async function commitWithChanges<T>(
  app: AppContext,
  companyId: number,
  work: (tx: EntityManager, changes: Change[]) => Promise<T>,
): Promise<{ value: T; published: Promise<void> }> {
  // A transaction aborted by a deadlock or serialization failure runs again (bounded, jittered).
  const { value, pending } = await withRetry(() =>
    app.ds.transaction(async (tx) => {
      const changes: Change[] = [];
      const result = await work(tx, changes);
      return { value: result, pending: await recordChanges(tx, companyId, changes) };
    }),
  );
  return { value, published: sequencer(app).sequence(companyId, pending) };
}

/**
 * Runs `work` in one transaction; the changes it pushes are numbered after it commits and sent as
 * socket events before this resolves.
 */
export async function withChanges<T>(
  app: AppContext,
  companyId: number,
  work: (tx: EntityManager, changes: Change[]) => Promise<T>,
): Promise<T> {
  const { value, published } = await commitWithChanges(app, companyId, work);
  await published;
  return value;
}

const sweeper = startChangeSweeper(sequencer);
if (!workerStarters.includes(sweeper)) workerStarters.push(sweeper);
