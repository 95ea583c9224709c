import type { CompanyEventName } from '@atende/shared';
import type { EntityManager } from 'typeorm';
import type { AppContext } from '../../context.js';
import {
  recordChanges,
  type Change,
  type ChangeEntity,
  type RecordedChange,
} from './change-log.js';

const EVENT_OF: Record<ChangeEntity, CompanyEventName | null> = {
  ticket: 'ticket',
  message: 'appMessage',
  contact: 'contact',
  tag: 'tag',
  // Notes travel through the feed only; the drawer reloads them (no socket event in core §7).
  note: null,
};

/** Sends recorded changes as socket events, each carrying its change-feed number. */
export function publish(app: AppContext, companyId: number, changes: RecordedChange[]): void {
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

/**
 * Runs `work` in one transaction; the changes it pushes are numbered in that transaction and
 * sent as socket events only after it commits.
 */
export async function withChanges<T>(
  app: AppContext,
  companyId: number,
  work: (tx: EntityManager, changes: Change[]) => Promise<T>,
): Promise<T> {
  let recorded: RecordedChange[] = [];
  const result = await app.ds.transaction(async (tx) => {
    const changes: Change[] = [];
    const value = await work(tx, changes);
    recorded = await recordChanges(tx, companyId, changes);
    return value;
  });
  publish(app, companyId, recorded);
  return result;
}
