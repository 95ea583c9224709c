// Ticket timers (issue 5): idle expiry (expiresTicket minutes, with expiresInactiveMessage),
// transfer of waiting tickets (timeToTransfer minutes → transferQueueId) and auto-close after
// TICKET_AUTO_CLOSE_HOURS. Postgres (ticket_timers) is the record; a BullMQ job only triggers a
// row, and a sweeper re-enqueues rows that are due, so a restart neither loses nor repeats one.
import type { Job, Queue } from 'bullmq';
import type { AppContext } from '../../context.js';
import { createQueue, startWorker, workerStarters } from '../../jobs/bullmq.js';
import { logger } from '../../logger.js';
import { outboundResultHandlers } from '../../whatsapp/hooks.js';
import { postCommitSteps } from '../messages/inbound.js';
import { loadBotState, saveBotState } from '../routing/bot-state.js';
import { closeTicketBySystem, sendBotMessage, setTicketQueue } from '../routing/bot-send.js';
import { now } from '../routing/clock.js';

export const TIMER_QUEUE = 'ticket-timers';
export const SWEEP_EVERY_MS = 30_000;
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

async function timingOf(app: AppContext, ticketId: number): Promise<TicketTiming | undefined> {
  const [row] = (await app.ds.query(
    `SELECT t.id, t."companyId", t.status, t."userId", t."queueId", t."createdAt",
            COALESCE(t."lastMessageAt", t."updatedAt") AS "idleSince",
            w."expiresTicket", w."expiresInactiveMessage", w."timeToTransfer", w."transferQueueId"
       FROM tickets t JOIN whatsapps w ON w.id = t."whatsappId" WHERE t.id = $1`,
    [ticketId],
  )) as TicketTiming[];
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

const queues = new WeakMap<AppContext, Queue>();
function timerQueue(app: AppContext): Queue {
  let queue = queues.get(app);
  if (!queue) queues.set(app, (queue = createQueue(app, TIMER_QUEUE)));
  return queue;
}

async function enqueue(app: AppContext, timerId: number, dueAt: Date, tag = ''): Promise<void> {
  await timerQueue(app).add(
    'fire',
    { timerId },
    {
      // One job per (row, due time): re-arming to a later time is a new job; the old one finds
      // the row not yet due and does nothing. The sweeper's own id fires rows whose job is late.
      jobId: `timer-${timerId}-${dueAt.getTime()}${tag}`,
      delay: Math.max(0, dueAt.getTime() - now().getTime()),
      attempts: 5,
      backoff: { type: 'exponential', delay: 2_000 },
      removeOnComplete: true,
      removeOnFail: 1_000,
    },
  );
}

/**
 * (Re)computes the ticket's timers from its current state and writes them; call after anything
 * that changes when they are due (a message, accept, transfer, reopen).
 */
export async function armTicketTimers(app: AppContext, ticketId: number): Promise<void> {
  const timing = await timingOf(app, ticketId);
  if (!timing) return;
  const due = dueTimes(timing, app.config.TICKET_AUTO_CLOSE_HOURS);
  for (const [kind, dueAt] of Object.entries(due) as [TimerKind, Date][]) {
    const [row] = (await app.ds.query(
      `INSERT INTO ticket_timers ("companyId", "ticketId", kind, "dueAt") VALUES ($1, $2, $3, $4)
       ON CONFLICT ("ticketId", kind) DO UPDATE SET "dueAt" = EXCLUDED."dueAt", "firedAt" = NULL
       RETURNING id`,
      [timing.companyId, ticketId, kind, dueAt],
    )) as { id: number }[];
    await enqueue(app, row!.id, dueAt);
  }
}

/** What a due timer does; each action is idempotent (conditional updates, keyed messages). */
async function act(app: AppContext, kind: TimerKind, timerKey: string, t: TicketTiming) {
  if (kind === 'transfer') {
    if (t.status !== 'pending' || t.userId != null || !t.transferQueueId) return;
    if (t.queueId !== t.transferQueueId) {
      await setTicketQueue(app, t.companyId, t.id, t.transferQueueId, false);
    }
    const state = await loadBotState(app.ds, t.id);
    if (state && state.stage !== 'rating') await saveBotState(app.ds, { ...state, stage: 'done' });
    return;
  }
  if (t.status !== 'open') return;
  if (kind === 'expire' && t.expiresInactiveMessage.trim()) {
    await sendBotMessage(app, t.companyId, t.id, t.expiresInactiveMessage, { key: timerKey });
  }
  await closeTicketBySystem(app, t.companyId, t.id, ['open']);
}

const FIRE_LOCK = 727_005;

/**
 * Runs one timer row if it is due now and not fired; a later due time re-arms instead. An
 * advisory lock per row makes the delayed job and a sweeper's job never run it side by side.
 */
export async function fireTimer(app: AppContext, timerId: number): Promise<void> {
  await app.ds.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1, $2)', [FIRE_LOCK, timerId]);
    const [row] = (await tx.query(
      `SELECT id, "ticketId", kind, "dueAt" FROM ticket_timers WHERE id = $1 AND "firedAt" IS NULL`,
      [timerId],
    )) as { id: number; ticketId: number; kind: TimerKind; dueAt: Date }[];
    if (!row || new Date(row.dueAt) > now()) return;
    const timing = await timingOf(app, row.ticketId);
    const due = timing && dueTimes(timing, app.config.TICKET_AUTO_CLOSE_HOURS)[row.kind];
    if (timing && due && due > now()) {
      // Something happened since it was armed (a new message): it is due later.
      await tx.query(`UPDATE ticket_timers SET "dueAt" = $2 WHERE id = $1`, [row.id, due]);
      await enqueue(app, row.id, due);
      return;
    }
    const key = `timer:${row.id}:${new Date(row.dueAt).getTime()}`;
    if (timing && due) await act(app, row.kind, key, timing);
    await tx.query(`UPDATE ticket_timers SET "firedAt" = now() WHERE id = $1`, [row.id]);
  });
}

/** Enqueues every unfired timer that is due (after a restart, or a job lost with Redis). */
export async function sweepDueTimers(app: AppContext): Promise<number> {
  const rows = (await app.ds.query(
    `SELECT id, "dueAt" FROM ticket_timers WHERE "firedAt" IS NULL AND "dueAt" <= $1
      ORDER BY "dueAt" LIMIT 1000`,
    [now()],
  )) as { id: number; dueAt: Date }[];
  for (const r of rows) await enqueue(app, r.id, new Date(r.dueAt), '-due');
  return rows.length;
}

const logged = (what: string) => (err: unknown) => logger.error({ err }, what);

// Every stored customer message moves the idle timers; so does every message we send.
if (!postCommitSteps.some((s) => s.name === 'armOnInbound')) {
  postCommitSteps.push(async function armOnInbound(app, stored) {
    await armTicketTimers(app, stored.ticket.id);
  });
}
outboundResultHandlers.push(async (app, job, result) => {
  if (!result.ok || !job.messageId) return;
  const [row] = (await app.ds.query('SELECT "ticketId" FROM messages WHERE id = $1', [
    job.messageId,
  ])) as { ticketId: number }[];
  if (row) await armTicketTimers(app, row.ticketId);
});

workerStarters.push(async (app) => {
  const worker = startWorker(
    app,
    TIMER_QUEUE,
    async (job: Job<{ timerId: number }>) => {
      await fireTimer(app, job.data.timerId);
      // A firing holds one pooled connection for its lock and uses another: keep few at once.
    },
    2,
  );
  const sweep = () => void sweepDueTimers(app).catch(logged('timer sweep failed'));
  sweep();
  const interval = setInterval(sweep, SWEEP_EVERY_MS);
  return {
    close: async () => {
      clearInterval(interval);
      await worker.close();
      await queues.get(app)?.close();
      queues.delete(app);
    },
  };
});
