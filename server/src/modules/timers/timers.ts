// Ticket timers (issue 5): idle expiry (expiresTicket minutes, with expiresInactiveMessage),
// transfer of waiting tickets (timeToTransfer minutes → transferQueueId) and auto-close after
// TICKET_AUTO_CLOSE_HOURS. Each timer is a durable job (jobs/durable.ts): a row in durable_jobs
// is the record, so a restart neither loses nor repeats one.
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import {
  defineDurableJob,
  scheduleDurableMany,
  startDurableJobs,
  sweepDurable,
  type DurableJob,
} from '../../jobs/durable.js';
import type { DomainEvent } from '../changes/index.js';
import { loadBotState, saveBotState } from '../routing/index.js';
import { closeTicketBySystem, sendBotMessage, transferTicketBySystem } from '../routing/index.js';
import { now } from '../routing/index.js';

const MINUTE = 60_000;

export type TimerKind = 'expire' | 'transfer' | 'autoclose';

interface TicketTiming {
  id: number;
  companyId: number;
  status: string;
  userId: number | null;
  queueId: number | null;
  idleSince: Date;
  createdAt: Date;
  expiresTicket: number;
  expiresInactiveMessage: string;
  timeToTransfer: number;
  transferQueueId: number | null;
}

const TIMING_SQL = `SELECT t.id, t."companyId", t.status, t."userId", t."queueId", t."createdAt",
            COALESCE(t."lastMessageAt", t."updatedAt") AS "idleSince",
            w."expiresTicket", w."expiresInactiveMessage", w."timeToTransfer", w."transferQueueId"
       FROM tickets t JOIN whatsapps w ON w.id = t."whatsappId"`;

async function timingOf(app: AppContext, ticketId: number): Promise<TicketTiming | undefined> {
  const [row] = (await app.ds.query(`${TIMING_SQL} WHERE t.id = $1`, [ticketId])) as TicketTiming[];
  return row;
}

/** When each timer of the ticket is due, given its state now; absent kinds do not apply. */
export function dueTimes(
  t: TicketTiming,
  autoCloseHours: number,
): Partial<Record<TimerKind, Date>> {
  const at = (base: Date, ms: number) => new Date(new Date(base).getTime() + ms);
  const due: Partial<Record<TimerKind, Date>> = {};
  if (t.status === 'closed') return due;
  if (t.expiresTicket > 0) due.expire = at(t.idleSince, t.expiresTicket * MINUTE);
  if (autoCloseHours > 0) due.autoclose = at(t.idleSince, autoCloseHours * 60 * MINUTE);
  if (t.status === 'pending' && t.userId == null && t.timeToTransfer > 0 && t.transferQueueId) {
    due.transfer = at(t.createdAt, t.timeToTransfer * MINUTE);
  }
  return due;
}

/** One row per (ticket, kind) in durable_jobs; its payload names them. */
const TimerPayload = z.object({
  ticketId: z.number().int().positive(),
  kind: z.enum(['expire', 'transfer', 'autoclose']),
});

/**
 * (Re)computes the tickets' timers from their current state and writes them, in one read and one
 * write for all of them; call after anything that changes when they are due (a message, accept,
 * transfer, reopen). A timer already waiting to fire earlier is left alone: its firing re-checks
 * the ticket and moves itself to the later time (`ticketTimerJob`), so a busy conversation costs
 * no write and no trigger per message.
 */
export async function armTicketTimersMany(
  app: AppContext,
  ticketIds: readonly number[],
): Promise<void> {
  const ids = [...new Set(ticketIds)];
  if (!ids.length) return;
  const timings = (await app.ds.query(`${TIMING_SQL} WHERE t.id = ANY($1::int[])`, [
    ids,
  ])) as TicketTiming[];
  const specs = timings.flatMap((timing) =>
    (
      Object.entries(dueTimes(timing, app.config.TICKET_AUTO_CLOSE_HOURS)) as [TimerKind, Date][]
    ).map(([kind, dueAt]) => ({
      key: `ticket:${timing.id}:${kind}`,
      companyId: timing.companyId,
      dueAt,
      payload: { ticketId: timing.id, kind },
    })),
  );
  await scheduleDurableMany(app, ticketTimerJob, specs, { keepEarlier: true });
}

export const armTicketTimers = (app: AppContext, ticketId: number): Promise<void> =>
  armTicketTimersMany(app, [ticketId]);

/** What a due timer does; each action is idempotent (conditional updates, keyed messages). */
async function act(app: AppContext, kind: TimerKind, timerKey: string, t: TicketTiming) {
  if (kind === 'transfer') {
    if (t.status !== 'pending' || t.userId != null || !t.transferQueueId) return;
    if (t.queueId !== t.transferQueueId) {
      await transferTicketBySystem(app, t.companyId, t.id, t.transferQueueId);
    }
    const state = await loadBotState(app.ds, t.id);
    if (state && state.stage !== 'rating') await saveBotState(app.ds, { ...state, stage: 'done' });
    return;
  }
  if (t.status !== 'open') return;
  if (kind === 'expire' && t.expiresInactiveMessage.trim()) {
    await sendBotMessage(app, t.companyId, t.id, t.expiresInactiveMessage, {
      key: timerKey,
      origin: 'timer',
    });
  }
  await closeTicketBySystem(app, t.companyId, t.id, ['open']);
}

/**
 * A due timer: it acts if the ticket still makes it due now; when something happened since it
 * was armed (a new message), it is due later and moves. Effects are idempotent (conditional
 * updates, a message keyed by the firing), as they commit apart from the firing's mark.
 */
export const ticketTimerJob = defineDurableJob({
  kind: 'ticket-timer',
  payload: TimerPayload,
  now: () => now(),
  async run(app, firing) {
    const { ticketId, kind } = firing.payload;
    const timing = await timingOf(app, ticketId);
    const due = timing && dueTimes(timing, app.config.TICKET_AUTO_CLOSE_HOURS)[kind];
    if (!timing || !due) return;
    if (due > now()) return { rescheduleAt: due };
    await act(app, kind, `timer:${firing.firingKey}`, timing);
  },
});

/** Fires every due timer now (the sweeper does this every few seconds; tests call it). */
export const sweepDueTimers = (app: AppContext): Promise<number> =>
  sweepDurable(app, [ticketTimerJob as DurableJob<unknown>]);

/**
 * Every message the session stores moves the idle timers (the `timers` consumer of the domain
 * events, see index.ts); so does every message we send that WhatsApp accepted. Arming is
 * idempotent: it recomputes the due times from the ticket as it is.
 */
export async function armOnStored(app: AppContext, event: DomainEvent<'message.stored'>) {
  if (event.payload.origin === 'inbound') await armTicketTimers(app, event.payload.ticketId);
}

export async function armOnSent(app: AppContext, event: DomainEvent<'message.sent'>) {
  await armTicketTimers(app, event.payload.ticketId);
}

/** A run of `message.stored` events at once: one read and one write for all their tickets. */
export async function armOnStoredMany(
  app: AppContext,
  events: readonly DomainEvent<'message.stored'>[],
) {
  const inbound = events.filter((e) => e.payload.origin === 'inbound');
  await armTicketTimersMany(
    app,
    inbound.map((e) => e.payload.ticketId),
  );
}

/** A run of `message.sent` events at once. */
export async function armOnSentMany(
  app: AppContext,
  events: readonly DomainEvent<'message.sent'>[],
) {
  await armTicketTimersMany(
    app,
    events.map((e) => e.payload.ticketId),
  );
}

/** The durable-job worker of the timers (worker role). */
export async function startTicketTimers(app: AppContext) {
  return startDurableJobs(app, [ticketTimerJob as DurableJob<unknown>]);
}
