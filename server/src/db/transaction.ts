// Transactions that Postgres may abort for concurrency alone: a deadlock (40P01) or a
// serialization failure (40001). Writers take their row locks in one order (contact, then
// ticket: see lockTicketForWrite) so deadlocks should not happen; this retry is the safety net
// for the orders we do not control, bounded so a real fault still surfaces.
import { logger } from '../logger.js';

/** SQLSTATEs after which the same transaction, run again, can succeed. */
const RETRYABLE = new Map([
  ['40P01', 'deadlocks'],
  ['40001', 'serialization'],
] as const);

export const MAX_TRANSACTION_ATTEMPTS = 5;
const BASE_DELAY_MS = 10;

/** How many transactions were aborted for concurrency (and retried) in this process. */
export const transactionConflicts = { deadlocks: 0, serialization: 0 };

const sqlState = (err: unknown): string | undefined => {
  const e = err as { code?: unknown; driverError?: { code?: unknown } } | null;
  const code = e?.driverError?.code ?? e?.code;
  return typeof code === 'string' ? code : undefined;
};

/** Whether Postgres aborted the transaction only because of a concurrent one. */
export const isConcurrencyAbort = (err: unknown): boolean => RETRYABLE.has(sqlState(err) as never);

/** Full jitter: a random wait up to a bound that doubles with each attempt. */
export const retryDelayMs = (attempt: number, random = Math.random): number =>
  Math.floor(random() * BASE_DELAY_MS * 2 ** attempt);

/**
 * Runs `attempt` (one whole transaction: begin, work, commit) again after a deadlock or a
 * serialization failure, up to MAX_TRANSACTION_ATTEMPTS times with jittered waits. The work must
 * be safe to run again: everything it did in the aborted attempt was rolled back.
 */
export async function withRetry<T>(attempt: () => Promise<T>): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (err) {
      const kind = RETRYABLE.get(sqlState(err) as never);
      if (!kind) throw err;
      transactionConflicts[kind] += 1;
      if (n >= MAX_TRANSACTION_ATTEMPTS) throw err;
      logger.warn(
        { code: sqlState(err), attempt: n },
        'transaction aborted by a concurrent one; retrying',
      );
      await new Promise((resolve) => setTimeout(resolve, retryDelayMs(n)));
    }
  }
}

interface Queryable {
  query: (sql: string, params?: unknown[]) => Promise<unknown>;
}

/**
 * Locks a ticket for writing in the order every writer of a ticket follows: its contact first,
 * then the ticket (the inbound pipeline's order: contact upsert, then ticket find-or-create).
 * An agent's write that touched the ticket first (a message or note insert checks its foreign
 * key on the ticket, then on the contact) could wait on the contact an inbound message holds
 * while that message waits on the ticket: a deadlock. Answers false when the ticket is not the
 * company's.
 */
export async function lockTicketForWrite(
  tx: Queryable,
  companyId: number,
  ticketId: number,
): Promise<boolean> {
  for (;;) {
    const [contact] = (await tx.query(
      `SELECT c.id FROM contacts c
        WHERE c.id = (SELECT "contactId" FROM tickets WHERE id = $1 AND "companyId" = $2)
          FOR NO KEY UPDATE OF c`,
      [ticketId, companyId],
    )) as { id: number }[];
    if (!contact) return false;
    const [ticket] = (await tx.query(
      `SELECT "contactId" FROM tickets WHERE id = $1 AND "companyId" = $2 FOR NO KEY UPDATE`,
      [ticketId, companyId],
    )) as { contactId: number }[];
    if (!ticket) return false;
    // A contact merge moved the ticket meanwhile: lock its new contact too.
    if (ticket.contactId === contact.id) return true;
  }
}

/** Locks a contact before a ticket of it is created (the same order as lockTicketForWrite). */
export async function lockContactForWrite(
  tx: Queryable,
  companyId: number,
  contactId: number,
): Promise<boolean> {
  const rows = (await tx.query(
    'SELECT id FROM contacts WHERE id = $1 AND "companyId" = $2 FOR NO KEY UPDATE',
    [contactId, companyId],
  )) as unknown[];
  return rows.length > 0;
}
