// The campaign dispatcher (issue 16). One durable job per campaign (`campaign-step`, key
// `campaign:<id>`) moves it: at its time it builds the recipients (PROGRAMADA → EM_ANDAMENTO), then
// sends one recipient at a time through the one outgoing writer in the 'bulk' lane, where the
// connection's send governor paces every bulk send of the connection. The campaign adds its own
// wait (campaign settings) after each send's result, so it can only make pacing slower.
//
// Exactly once per recipient: a recipient row is unique per campaign; its message is stored with
// the clientId `campaign:<campaign>:<recipient>` (the messages table drops a second one) in the same
// transaction that marks the recipient dispatched, with the send job kept on the row. A dispatcher
// killed after that commit finds the recipient pending and queues the same job again (its job id
// derives from the message's WhatsApp id, so a job still queued is not added twice).
//
// Lock order: a firing holds its durable_jobs row, then takes the campaign row in a transaction
// of its own. Routes and handlers take the campaign row and release it before they touch
// durable_jobs; so nobody waits for a durable row while holding a campaign.
import type { EntityManager } from 'typeorm';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { lockTicketForWrite } from '../../db/transaction.js';
import {
  cancelDurable,
  defineDurableJob,
  scheduleDurable,
  startDurableJobs,
  sweepDurable,
  type DurableJob,
  type Firing,
  type FiringOutcome,
} from '../../jobs/durable.js';
import { logger } from '../../logger.js';
import type {
  OutboundJob,
  OutboundResultHandler,
  SessionEventHandler,
} from '../../whatsapp/hooks.js';
import { companyMediaPath, mediaUrl, mimeOfExtension } from '../../whatsapp/media.js';
import { enqueueOutbound } from '../../whatsapp/outbound.js';
import { withChanges, type ChangeList, type DomainEvent } from '../changes/index.js';
import { upsertContact } from '../contacts/index.js';
import {
  dispatchOutgoing,
  markSendFailed,
  storeOutgoing,
  type OutgoingMedia,
  type StoredOutgoing,
} from '../messages/index.js';
import { findOrCreateTicket, loadTicket } from '../tickets/index.js';
import {
  campaignNow,
  campaignRow,
  campaignSettings,
  canonicalNumber,
  classifyReply,
  confirmationsOf,
  emitCampaign,
  emitShipping,
  isSuppressed,
  nextGap,
  renderMessage,
  suppressNumber,
  useCampaignClockOf,
  variantsOf,
  type CampaignRow,
} from './campaigns.service.js';

/** A pending send with no result this long is queued again (idempotent: same job id). */
export const PENDING_RECHECK_MS = 60_000;
/** While the connection is down the campaign holds and looks again after this. */
export const DISCONNECT_RECHECK_MS = 60_000;
/** This many sends of a campaign failing in a row pause it for FAILURE_PAUSE_MS. */
export const FAILURE_SPIKE = 5;
export const FAILURE_PAUSE_MS = 15 * 60_000;
/** Recipients one firing may skip before it yields (opt-outs found at send time). */
const STEPS_PER_FIRING = 50;

const StepPayload = z.object({ campaignId: z.number().int().positive() });

export const campaignStepJob = defineDurableJob({
  kind: 'campaign-step',
  payload: StepPayload,
  now: () => campaignNow(),
  // A step that keeps failing must not stop the campaign for good: it is rescheduled anyway.
  maxAttempts: 50,
  run: (app, firing) => runStep(app, firing),
});
const jobs = [campaignStepJob as DurableJob<unknown>];

const stepKey = (campaignId: number) => `campaign:${campaignId}`;

/** Moves the campaign's step to `at` (call outside any campaign-row transaction). */
export async function scheduleStep(
  app: AppContext,
  companyId: number,
  campaignId: number,
  at: Date,
): Promise<void> {
  await scheduleDurable(app, campaignStepJob, {
    key: stepKey(campaignId),
    companyId,
    dueAt: at,
    payload: { campaignId },
  });
}

export async function cancelStep(app: AppContext, campaignId: number): Promise<void> {
  await cancelDurable(app, campaignStepJob as DurableJob<unknown>, stepKey(campaignId));
}

/** Fires every due campaign step now (the sweeper does this every few seconds; tests call it). */
export const sweepCampaigns = (app: AppContext) => sweepDurable(app, jobs);

export async function startCampaigns(app: AppContext) {
  useCampaignClockOf(app);
  return startDurableJobs(app, jobs);
}

type Step = { done: true } | { wait: Date } | { again: true };

async function runStep(
  app: AppContext,
  firing: Firing<z.infer<typeof StepPayload>>,
): Promise<FiringOutcome> {
  const companyId = firing.companyId;
  if (companyId == null) return;
  for (let i = 0; i < STEPS_PER_FIRING; i++) {
    const step = await stepOnce(app, companyId, firing.payload.campaignId);
    if ('done' in step) return;
    if ('wait' in step) return { rescheduleAt: step.wait };
  }
  return { rescheduleAt: campaignNow() };
}

interface PendingRow {
  id: number;
  asked: boolean;
  job: OutboundJob | null;
  tracked: number | null;
  dispatchedAt: Date;
}

interface QueuedRow {
  id: number;
  number: string;
  name: string;
  email: string;
}

/** What a step committed and still has to do after commit. */
interface AfterCommit {
  stored: StoredOutgoing[];
  shippingId?: number;
  emit?: boolean;
  requeue?: OutboundJob;
}

async function stepOnce(app: AppContext, companyId: number, campaignId: number): Promise<Step> {
  const now = campaignNow();
  const after: AfterCommit = { stored: [] };
  const step = await withChanges(app, companyId, async (tx, changes): Promise<Step> => {
    after.stored = [];
    after.shippingId = undefined;
    after.emit = false;
    after.requeue = undefined;
    const c = await campaignRow(tx, companyId, campaignId, true);
    if (!c) return { done: true };
    if (c.status === 'PROGRAMADA') {
      if (!c.scheduledAt) return { done: true };
      if (new Date(c.scheduledAt) > now) return { wait: new Date(c.scheduledAt) };
      await buildRecipients(tx, c);
      await tx.query(
        `UPDATE campaigns SET status = 'EM_ANDAMENTO', "pausedReason" = NULL, "pausedUntil" = NULL,
                "updatedAt" = now() WHERE id = $1`,
        [c.id],
      );
      after.emit = true;
      return { again: true };
    }
    if (c.status !== 'EM_ANDAMENTO') return { done: true };
    if (c.pausedUntil && new Date(c.pausedUntil) > now) return { wait: new Date(c.pausedUntil) };

    const [conn] = (await tx.query(
      `SELECT status FROM whatsapps WHERE id = $1 AND "companyId" = $2`,
      [c.whatsappId, companyId],
    )) as { status: string }[];
    if (!conn) {
      await setPause(tx, c, 'no-connection', null);
      after.emit = true;
      return { done: true };
    }
    if (conn.status !== 'CONNECTED') {
      if (c.pausedReason !== 'disconnected') {
        await setPause(tx, c, 'disconnected', null);
        after.emit = true;
      }
      return { wait: new Date(now.getTime() + DISCONNECT_RECHECK_MS) };
    }
    if (c.pausedReason) {
      await setPause(tx, c, null, null);
      after.emit = true;
    }

    // One send of the campaign at a time: the next waits for this one's result.
    const [pending] = (await tx.query(
      `SELECT id, job, "dispatchedAt", COALESCE("confirmationMessageId", "messageId") AS tracked,
              "confirmationMessageId" IS NOT NULL AS asked
         FROM campaign_shippings
        WHERE "companyId" = $1 AND "campaignId" = $2 AND state = 'queued'
          AND "dispatchedAt" IS NOT NULL
        ORDER BY id LIMIT 1 FOR UPDATE`,
      [companyId, c.id],
    )) as PendingRow[];
    if (pending) return reconcile(tx, c, pending, now, after);

    if (c.lastSentAt) {
      const due = new Date(new Date(c.lastSentAt).getTime() + c.nextGapMs);
      if (due > now) return { wait: due };
    }

    const [next] = (await tx.query(
      `SELECT id, number, name, email FROM campaign_shippings
        WHERE "companyId" = $1 AND "campaignId" = $2 AND state = 'queued'
          AND "dispatchedAt" IS NULL
        ORDER BY id LIMIT 1 FOR UPDATE`,
      [companyId, c.id],
    )) as QueuedRow[];
    if (!next) {
      await tx.query(
        `UPDATE campaigns SET status = 'FINALIZADA', "completedAt" = $2, "pausedReason" = NULL,
                "pausedUntil" = NULL, "updatedAt" = now() WHERE id = $1`,
        [c.id, now],
      );
      after.emit = true;
      return { done: true };
    }
    // The suppression list again, at send time: an opt-out since the recipients were built.
    if (await isSuppressed(tx, companyId, next.number)) {
      await tx.query(
        `UPDATE campaign_shippings SET state = 'skipped', reason = 'opt-out', "updatedAt" = now()
          WHERE id = $1`,
        [next.id],
      );
      after.shippingId = next.id;
      return { again: true };
    }
    await dispatchRecipient(app, tx, changes, c, next, now, after);
    return { wait: new Date(now.getTime() + PENDING_RECHECK_MS) };
  });
  await afterCommit(app, companyId, campaignId, after);
  return step;
}

async function afterCommit(
  app: AppContext,
  companyId: number,
  campaignId: number,
  after: AfterCommit,
): Promise<void> {
  if (after.requeue) {
    await enqueueOutbound(app, after.requeue, { lane: 'bulk' }).catch((err: unknown) =>
      logger.error({ err, campaignId }, 'campaign send not queued again'),
    );
  }
  for (const [i, stored] of after.stored.entries()) {
    const queued = await dispatchOutgoing(app, stored);
    // The tracked message (the first) could not be queued: the recipient failed.
    if (!queued && i === 0 && after.shippingId) {
      await settleSend(app, companyId, stored.message.id, false, 'ERR_SENDING_WAPP_MSG');
    }
  }
  if (after.shippingId) await emitShipping(app, companyId, after.shippingId);
  else if (after.emit) await emitCampaign(app, companyId, campaignId);
}

async function setPause(
  tx: EntityManager,
  c: CampaignRow,
  reason: string | null,
  until: Date | null,
): Promise<void> {
  await tx.query(
    `UPDATE campaigns SET "pausedReason" = $2, "pausedUntil" = $3, "updatedAt" = now()
      WHERE id = $1`,
    [c.id, reason, until],
  );
}

/** A recipient dispatched earlier with no result yet: settle it from its message, or requeue. */
async function reconcile(
  tx: EntityManager,
  c: CampaignRow,
  pending: PendingRow,
  now: Date,
  after: AfterCommit,
): Promise<Step> {
  const [message] = pending.tracked
    ? ((await tx.query(`SELECT ack, "sendError" FROM messages WHERE id = $1`, [
        pending.tracked,
      ])) as { ack: number; sendError: string | null }[])
    : [];
  if (!message) {
    // The message is gone (deleted): the recipient failed.
    await markResult(tx, c, pending.id, pending.asked, false, 'message deleted', now);
    after.shippingId = pending.id;
    return { again: true };
  }
  if (message.sendError || message.ack >= 1) {
    await markResult(tx, c, pending.id, pending.asked, !message.sendError, message.sendError, now);
    after.shippingId = pending.id;
    return { again: true };
  }
  const since = now.getTime() - new Date(pending.dispatchedAt).getTime();
  if (pending.job && since >= PENDING_RECHECK_MS - 1) after.requeue = pending.job;
  return { wait: new Date(now.getTime() + PENDING_RECHECK_MS) };
}

/** Stores and (after commit) sends the recipient's message: the confirmation request or the
 * main message, with the campaign's media and its file list. */
async function dispatchRecipient(
  app: AppContext,
  tx: EntityManager,
  changes: ChangeList,
  c: CampaignRow,
  r: QueuedRow,
  now: Date,
  after: AfterCommit,
): Promise<void> {
  const settings = await campaignSettings(tx, c.companyId);
  const variants = variantsOf(c);
  const confirmations = confirmationsOf(c);
  const asking = c.confirmation && confirmations.length > 0;
  const pool = asking ? confirmations : variants;
  if (!pool.length || c.whatsappId == null) {
    await tx.query(
      `UPDATE campaign_shippings SET state = 'failed', reason = 'no message', "failedAt" = $2,
              "updatedAt" = now() WHERE id = $1`,
      [r.id, now],
    );
    after.shippingId = r.id;
    return;
  }
  // Variants rotate per campaign (campaigns.rotation), never on a shared counter.
  const chosen = pool[c.rotation % pool.length]!;
  const body = renderMessage(chosen.text, r, settings.variables);
  const target = await ticketFor(tx, changes, c, r);
  const stored = await storeOutgoing(tx, changes, {
    companyId: c.companyId,
    ticket: target,
    body,
    clientId: `campaign:${c.id}:${r.id}${asking ? ':ask' : ''}`,
    userId: null,
    origin: 'campaign',
    ...(!asking && { media: campaignMedia(app, c) }),
  });
  if (!stored) {
    // Already stored by an earlier attempt that committed: find it and track it.
    const [row] = (await tx.query(
      `SELECT id FROM messages WHERE "companyId" = $1 AND "clientId" = $2`,
      [c.companyId, `campaign:${c.id}:${r.id}${asking ? ':ask' : ''}`],
    )) as { id: number }[];
    await tx.query(
      `UPDATE campaign_shippings SET "dispatchedAt" = $2, ${asking ? '"confirmationMessageId"' : '"messageId"'} = $3,
              "updatedAt" = now() WHERE id = $1`,
      [r.id, now, row?.id ?? null],
    );
    return;
  }
  after.stored.push(stored);
  if (!asking) after.stored.push(...(await fileListMessages(app, tx, changes, c, r, target)));
  await tx.query(
    `UPDATE campaign_shippings SET "dispatchedAt" = $2, variant = $3, message = $4, job = $5,
            "contactId" = $6, "ticketId" = $7, ${asking ? '"confirmationMessageId"' : '"messageId"'} = $8,
            "updatedAt" = now()
      WHERE id = $1`,
    [
      r.id,
      now,
      chosen.n,
      body,
      JSON.stringify(stored.job),
      target.contactId,
      target.id,
      stored.message.id,
    ],
  );
  await tx.query(`UPDATE campaigns SET rotation = rotation + 1 WHERE id = $1`, [c.id]);
  after.shippingId = r.id;
}

function campaignMedia(app: AppContext, c: CampaignRow): OutgoingMedia | undefined {
  if (!c.mediaPath || !companyMediaPath(app, c.companyId, c.mediaPath)) return undefined;
  return {
    path: `${c.companyId}/${c.mediaPath}`,
    url: mediaUrl(c.mediaPath),
    mimetype: mimeOfExtension(c.mediaPath.split('.').pop() ?? ''),
    ...(c.mediaName && { fileName: c.mediaName }),
  };
}

/** The file list's message and files, each its own message after the main one. */
async function fileListMessages(
  app: AppContext,
  tx: EntityManager,
  changes: ChangeList,
  c: CampaignRow,
  r: QueuedRow,
  ticket: Awaited<ReturnType<typeof loadTicket>>,
): Promise<StoredOutgoing[]> {
  if (!c.fileListId) return [];
  const options = (await tx.query(
    `SELECT o.id, o.name, o.path, o."mediaType" FROM file_list_options o
      WHERE o."companyId" = $1 AND o."fileListId" = $2 AND o.path IS NOT NULL ORDER BY o.id`,
    [c.companyId, c.fileListId],
  )) as { id: number; name: string; path: string; mediaType: string | null }[];
  const out: StoredOutgoing[] = [];
  for (const o of options) {
    if (!companyMediaPath(app, c.companyId, o.path)) continue;
    const stored = await storeOutgoing(tx, changes, {
      companyId: c.companyId,
      ticket,
      body: '',
      clientId: `campaign:${c.id}:${r.id}:file:${o.id}`,
      userId: null,
      origin: 'campaign',
      media: {
        path: `${c.companyId}/${o.path}`,
        url: mediaUrl(o.path),
        mimetype: o.mediaType || mimeOfExtension(o.path.split('.').pop() ?? ''),
        fileName: o.name || o.path,
      },
    });
    if (stored) out.push(stored);
  }
  return out;
}

/** The recipient's contact and open ticket on the campaign's connection, locked for writing. */
async function ticketFor(tx: EntityManager, changes: ChangeList, c: CampaignRow, r: QueuedRow) {
  const contactId = await upsertContact(
    tx,
    c.companyId,
    { phone: r.number, name: r.name },
    changes,
  );
  if (!contactId) throw new Error('campaign recipient without a number');
  const ticket = await findOrCreateTicket(tx, c.companyId, contactId, c.whatsappId!, false);
  await lockTicketForWrite(tx, c.companyId, ticket.id);
  return loadTicket(tx, c.companyId, ticket.id);
}

interface AudienceRow {
  recipient: string;
  number: string;
  name: string;
  email: string;
  valid: boolean | null;
}

/**
 * The recipients, once, when the campaign starts: the contact list's items and/or the contacts
 * of the tickets carrying the tag. Each number is checked: invalid → skipped 'invalid-number',
 * seen before in this audience → 'duplicate', on the suppression list → 'opt-out'.
 */
export async function buildRecipients(tx: EntityManager, c: CampaignRow): Promise<void> {
  const audience: AudienceRow[] = [];
  if (c.contactListId) {
    audience.push(
      ...((await tx.query(
        `SELECT 'item:' || id AS recipient, number, name, email, "isWhatsappValid" AS valid
           FROM contact_list_items WHERE "companyId" = $1 AND "contactListId" = $2 ORDER BY id`,
        [c.companyId, c.contactListId],
      )) as AudienceRow[]),
    );
  }
  if (c.tagListId) {
    audience.push(
      ...((await tx.query(
        `SELECT DISTINCT ON (ct.id) 'contact:' || ct.id AS recipient, ct.number, ct.name,
                ct.email, NULL::boolean AS valid
           FROM ticket_tags tt
           JOIN tags g ON g.id = tt."tagId" AND g."companyId" = $1
           JOIN tickets t ON t.id = tt."ticketId" AND t."companyId" = $1
           JOIN contacts ct ON ct.id = t."contactId" AND NOT ct."isGroup"
          WHERE tt."tagId" = $2 ORDER BY ct.id`,
        [c.companyId, c.tagListId],
      )) as AudienceRow[]),
    );
  }
  const suppressed = new Set(
    (
      (await tx.query(`SELECT number FROM campaign_suppressions WHERE "companyId" = $1`, [
        c.companyId,
      ])) as { number: string }[]
    ).map((r) => r.number),
  );
  const seen = new Set<string>();
  const rows = audience.map((a) => {
    const canonical = canonicalNumber(a.number);
    let state = 'queued';
    let reason: string | null = null;
    if (!canonical || a.valid === false) [state, reason] = ['skipped', 'invalid-number'];
    else if (seen.has(canonical)) [state, reason] = ['skipped', 'duplicate'];
    else if (suppressed.has(canonical)) [state, reason] = ['skipped', 'opt-out'];
    if (canonical) seen.add(canonical);
    return {
      ...a,
      number: (canonical ?? a.number.replace(/\D/g, '')).slice(0, 30) || '0',
      state,
      reason,
    };
  });
  for (let i = 0; i < rows.length; i += 5_000) {
    const chunk = rows.slice(i, i + 5_000);
    await tx.query(
      `INSERT INTO campaign_shippings ("companyId", "campaignId", recipient, number, name, email,
              state, reason)
       SELECT $1, $2, * FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
              $8::text[])
       ON CONFLICT ("campaignId", recipient) DO NOTHING`,
      [
        c.companyId,
        c.id,
        chunk.map((r) => r.recipient),
        chunk.map((r) => r.number),
        chunk.map((r) => r.name.slice(0, 255)),
        chunk.map((r) => r.email.slice(0, 255)),
        chunk.map((r) => r.state),
        chunk.map((r) => r.reason),
      ],
    );
  }
}

/** Marks a dispatched recipient sent (or the confirmation request sent) or failed, and sets
 * the campaign's next wait; a run of failures pauses the campaign. */
async function markResult(
  tx: EntityManager,
  c: CampaignRow,
  shippingId: number,
  asked: boolean,
  ok: boolean,
  error: string | null,
  now: Date,
): Promise<void> {
  if (ok) {
    await tx.query(
      `UPDATE campaign_shippings SET state = 'sent',
              ${asked ? '"confirmationRequestedAt"' : '"sentAt"'} = $2, "updatedAt" = now()
        WHERE id = $1 AND state = 'queued'`,
      [shippingId, now],
    );
  } else {
    await tx.query(
      `UPDATE campaign_shippings SET state = 'failed', reason = $3, "failedAt" = $2,
              "updatedAt" = now() WHERE id = $1 AND state = 'queued'`,
      [shippingId, now, (error ?? 'failed').slice(0, 255)],
    );
  }
  const settings = await campaignSettings(tx, c.companyId);
  const since = c.sinceLongPause + 1;
  const gap = nextGap(settings, since);
  let pausedReason = c.pausedReason;
  let pausedUntil = c.pausedUntil;
  if (!ok) {
    const recent = (await tx.query(
      `SELECT state FROM campaign_shippings
        WHERE "campaignId" = $1 AND state <> 'queued' AND state <> 'skipped'
          AND "dispatchedAt" IS NOT NULL
        ORDER BY "dispatchedAt" DESC, id DESC LIMIT $2`,
      [c.id, FAILURE_SPIKE],
    )) as { state: string }[];
    if (recent.length >= FAILURE_SPIKE && recent.every((r) => r.state === 'failed')) {
      pausedReason = 'failures';
      pausedUntil = new Date(now.getTime() + FAILURE_PAUSE_MS);
      logger.warn({ campaignId: c.id }, 'campaign paused: failure spike');
    }
  }
  await tx.query(
    `UPDATE campaigns SET "lastSentAt" = $2, "nextGapMs" = $3, "sinceLongPause" = $4,
            "pausedReason" = $5, "pausedUntil" = $6, "updatedAt" = now() WHERE id = $1`,
    [c.id, now, gap.gapMs, gap.long ? 0 : since, pausedReason, pausedUntil],
  );
}

/** A send's result: the tracked message of a recipient settles it; returns what to do next. */
async function settleSend(
  app: AppContext,
  companyId: number,
  messageId: number,
  ok: boolean,
  error: string | null,
): Promise<void> {
  const now = campaignNow();
  const settled = await app.ds.transaction(async (tx) => {
    const [s] = (await tx.query(
      `SELECT id, "campaignId", "messageId", "confirmationMessageId", state
         FROM campaign_shippings
        WHERE "companyId" = $1 AND ("messageId" = $2 OR "confirmationMessageId" = $2)`,
      [companyId, messageId],
    )) as {
      id: number;
      campaignId: number;
      messageId: number | null;
      confirmationMessageId: number | null;
      state: string;
    }[];
    if (!s) return undefined;
    const c = await campaignRow(tx, companyId, s.campaignId, true);
    if (!c) return undefined;
    const tracked = s.confirmationMessageId ?? s.messageId;
    if (tracked === messageId && s.state === 'queued') {
      await tx.query('SELECT 1 FROM campaign_shippings WHERE id = $1 FOR UPDATE', [s.id]);
      await markResult(tx, c, s.id, s.confirmationMessageId != null, ok, error, now);
      const fresh = await campaignRow(tx, companyId, c.id);
      return { shippingId: s.id, campaign: fresh!, step: true };
    }
    if (s.confirmationMessageId == null || s.messageId !== messageId) return undefined;
    // The main message after a confirmation: its own result, no pacing change.
    await tx.query(
      ok
        ? `UPDATE campaign_shippings SET "sentAt" = COALESCE("sentAt", $2), "updatedAt" = now()
            WHERE id = $1`
        : `UPDATE campaign_shippings SET reason = $3, "failedAt" = $2, "updatedAt" = now()
            WHERE id = $1`,
      ok ? [s.id, now] : [s.id, now, (error ?? 'failed').slice(0, 255)],
    );
    return { shippingId: s.id, campaign: c, step: false };
  });
  if (!settled) return;
  if (settled.step && settled.campaign.status === 'EM_ANDAMENTO') {
    const c = settled.campaign;
    const due = new Date(new Date(c.lastSentAt!).getTime() + c.nextGapMs);
    const at = c.pausedUntil && new Date(c.pausedUntil) > due ? new Date(c.pausedUntil) : due;
    await scheduleStep(app, companyId, c.id, at);
  }
  await emitShipping(app, companyId, settled.shippingId);
}

/** The outcome of a send job (a listener): settles the campaign recipient it belongs to. */
export const onOutboundResult: OutboundResultHandler = async (app, job, result) => {
  if (job.messageId == null) return;
  if (job.content.kind !== 'text' && job.content.kind !== 'media') return;
  await settleSend(app, job.companyId, job.messageId, result.ok, result.ok ? null : result.error);
};

/**
 * Session events (a listener): delivery and read receipts move a recipient forward; a dropped
 * connection pauses its running campaigns and a reconnect resumes them at once.
 */
export const onSessionEvent: SessionEventHandler = async (app, connection, event) => {
  if (event.name === 'ack') {
    const { ref, ack } = event.payload;
    if (!ref.fromMe || ack < 3) return;
    const now = campaignNow();
    const rows = (await app.ds.query(
      `UPDATE campaign_shippings s
          SET "deliveredAt" = COALESCE(s."deliveredAt", $4),
              "readAt" = CASE WHEN $5::int >= 4 THEN COALESCE(s."readAt", $4) ELSE s."readAt" END,
              state = CASE
                WHEN s.state IN ('sent', 'delivered') AND $5::int >= 4 THEN 'read'
                WHEN s.state = 'sent' THEN 'delivered'
                ELSE s.state END,
              "updatedAt" = now()
         FROM messages m
        WHERE m."companyId" = $1 AND m."whatsappId" = $2 AND m.wid = $3 AND m."fromMe"
          AND s."companyId" = $1
          AND (s."messageId" = m.id OR s."confirmationMessageId" = m.id)
        RETURNING s.id`,
      [connection.companyId, connection.whatsappId, ref.id, now, ack],
    )) as [{ id: number }[], number] | { id: number }[];
    const list = Array.isArray(rows[0])
      ? (rows[0] as { id: number }[])
      : (rows as { id: number }[]);
    for (const r of list) await emitShipping(app, connection.companyId, r.id);
    return;
  }
  if (event.name !== 'connection') return;
  const { status } = event.payload;
  if (status === 'CONNECTED') {
    const resumed = (await app.ds.query(
      `UPDATE campaigns SET "pausedReason" = NULL, "updatedAt" = now()
        WHERE "companyId" = $1 AND "whatsappId" = $2 AND status = 'EM_ANDAMENTO'
          AND "pausedReason" = 'disconnected' RETURNING id`,
      [connection.companyId, connection.whatsappId],
    )) as [{ id: number }[], number];
    for (const { id } of resumed[0]) {
      await scheduleStep(app, connection.companyId, id, campaignNow());
      await emitCampaign(app, connection.companyId, id);
    }
  } else if (status === 'DISCONNECTED' || status === 'TIMEOUT') {
    const paused = (await app.ds.query(
      `UPDATE campaigns SET "pausedReason" = 'disconnected', "updatedAt" = now()
        WHERE "companyId" = $1 AND "whatsappId" = $2 AND status = 'EM_ANDAMENTO'
          AND "pausedReason" IS NULL RETURNING id`,
      [connection.companyId, connection.whatsappId],
    )) as [{ id: number }[], number];
    for (const { id } of paused[0]) await emitCampaign(app, connection.companyId, id);
  }
};

/**
 * A customer's message (a domain-event consumer): a reply to a campaign is classified (yes, no,
 * stop); a stop word puts the number on the suppression list; a yes to a confirmation request
 * sends the campaign's message. Idempotent: conditional updates and keyed messages.
 */
/**
 * A run of stored messages: the customers' replies whose number a campaign sent to (one read for
 * the run) go through `onMessageStored` in order; the rest, nearly all of them, need nothing.
 */
export async function onMessagesStored(
  app: AppContext,
  events: DomainEvent<'message.stored'>[],
): Promise<void> {
  const replies = events.filter((e) => !e.payload.fromMe && e.payload.origin === 'inbound');
  if (!replies.length) return;
  const rows = (await app.ds.query(
    `SELECT m.id, m."companyId", ct.number FROM messages m
       JOIN contacts ct ON ct.id = m."contactId"
      WHERE m.id = ANY($1::int[]) AND NOT ct."isGroup"`,
    [replies.map((e) => e.payload.messageId)],
  )) as { id: number; companyId: number; number: string }[];
  const numberOf = new Map(rows.map((r) => [r.id, canonicalNumber(r.number)]));
  const wanted = new Set<string>();
  const byCompany = new Map<number, Set<string>>();
  for (const r of rows) {
    const number = numberOf.get(r.id);
    if (!number) continue;
    let numbers = byCompany.get(r.companyId);
    if (!numbers) byCompany.set(r.companyId, (numbers = new Set()));
    numbers.add(number);
  }
  for (const [companyId, numbers] of byCompany) {
    const sent = (await app.ds.query(
      `SELECT DISTINCT number FROM campaign_shippings
        WHERE "companyId" = $1 AND number = ANY($2::text[])
          AND ("sentAt" IS NOT NULL OR "confirmationRequestedAt" IS NOT NULL)`,
      [companyId, [...numbers]],
    )) as { number: string }[];
    for (const r of sent) wanted.add(`${companyId}:${r.number}`);
  }
  for (const event of replies) {
    const number = numberOf.get(event.payload.messageId);
    if (number && wanted.has(`${event.companyId}:${number}`)) await onMessageStored(app, event);
  }
}

export async function onMessageStored(
  app: AppContext,
  event: DomainEvent<'message.stored'>,
): Promise<void> {
  const { messageId, fromMe, origin } = event.payload;
  if (fromMe || origin !== 'inbound') return;
  const companyId = event.companyId;
  const [m] = (await app.ds.query(
    `SELECT m.body, ct.number, m."createdAt" FROM messages m
       JOIN contacts ct ON ct.id = m."contactId"
      WHERE m.id = $1 AND m."companyId" = $2 AND NOT ct."isGroup"`,
    [messageId, companyId],
  )) as { body: string; number: string; createdAt: Date }[];
  if (!m?.body) return;
  const number = canonicalNumber(m.number);
  if (!number) return;
  const kind = classifyReply(m.body);
  const now = campaignNow();
  const result = await app.ds.transaction(async (tx) => {
    // The newest recipient row of this number that something was sent to.
    const [s] = (await tx.query(
      `SELECT s.id, s."campaignId", s.reply, s."confirmationRequestedAt", s."confirmedAt",
              s.name, s.email, s.number, s.variant
         FROM campaign_shippings s
        WHERE s."companyId" = $1 AND s.number = $2
          AND (s."sentAt" IS NOT NULL OR s."confirmationRequestedAt" IS NOT NULL)
        ORDER BY COALESCE(s."sentAt", s."confirmationRequestedAt") DESC, s.id DESC
        LIMIT 1 FOR UPDATE`,
      [companyId, number],
    )) as {
      id: number;
      campaignId: number;
      reply: string | null;
      confirmationRequestedAt: Date | null;
      confirmedAt: Date | null;
      name: string;
      email: string;
      number: string;
      variant: number | null;
    }[];
    if (!s) return undefined;
    if (kind === 'stop') await suppressNumber(tx, companyId, number, 'reply');
    const first = s.reply == null;
    if (first || kind === 'stop') {
      await tx.query(
        `UPDATE campaign_shippings SET reply = $2, "replyText" = $3,
                "repliedAt" = COALESCE("repliedAt", $4), state = 'replied', "updatedAt" = now()
          WHERE id = $1`,
        [s.id, kind, m.body.slice(0, 1_000), now],
      );
    }
    const c = await campaignRow(tx, companyId, s.campaignId);
    const confirm =
      kind === 'yes' && c?.confirmation && s.confirmationRequestedAt && !s.confirmedAt;
    if (confirm) {
      await tx.query(`UPDATE campaign_shippings SET "confirmedAt" = $2 WHERE id = $1`, [s.id, now]);
    }
    return { shipping: s, campaign: c, confirm };
  });
  if (!result) return;
  if (result.confirm && result.campaign) {
    await sendAfterConfirmation(app, result.campaign, result.shipping);
  }
  await emitShipping(app, companyId, result.shipping.id);
}

/** The campaign's message to a recipient who confirmed (keyed: sent once). */
async function sendAfterConfirmation(
  app: AppContext,
  c: CampaignRow,
  s: { id: number; name: string; email: string; number: string; variant: number | null },
): Promise<void> {
  if (await isSuppressed(app.ds, c.companyId, s.number)) return;
  const variants = variantsOf(c);
  if (!variants.length || c.whatsappId == null) return;
  const chosen = variants.find((v) => v.n === s.variant) ?? variants[0]!;
  const settings = await campaignSettings(app.ds, c.companyId);
  const body = renderMessage(chosen.text, s, settings.variables);
  const stored: StoredOutgoing[] = [];
  await withChanges(app, c.companyId, async (tx, changes) => {
    stored.length = 0;
    const ticket = await ticketFor(tx, changes, c, { ...s });
    const main = await storeOutgoing(tx, changes, {
      companyId: c.companyId,
      ticket,
      body,
      clientId: `campaign:${c.id}:${s.id}`,
      userId: null,
      origin: 'campaign',
      media: campaignMedia(app, c),
    });
    if (!main) return;
    stored.push(main, ...(await fileListMessages(app, tx, changes, c, { ...s }, ticket)));
    await tx.query(
      `UPDATE campaign_shippings SET "messageId" = $2, message = $3, "updatedAt" = now()
        WHERE id = $1`,
      [s.id, main.message.id, body],
    );
  });
  for (const one of stored) {
    if (!(await dispatchOutgoing(app, one))) {
      await markSendFailed(app, c.companyId, one.message.id, 'ERR_SENDING_WAPP_MSG');
    }
  }
}
