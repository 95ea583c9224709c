// Webhook and n8n deliveries (issue 18 item 2): one row of `webhook_deliveries` per customer
// message handed to the integration, delivered by a durable job. Each attempt signs the same
// payload (same `webhook-id`) with a fresh timestamp; a failure retries on the schedule of
// automation/clients/webhook.ts (≈ 5 s … 6 h, ±20 %), then the row is a dead letter that the
// admin may replay. The attempt runs while the job's row is locked, so one process at a time
// delivers it; a worker killed mid-attempt leaves the row pending and another sends it again
// with the same id (receivers dedupe on it, as docs/webhooks.md asks).
import { z } from 'zod';
import type { DeliveryAnswer, DeliveryStatus, WebhookPayload } from '@atende/shared';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { PAGE_SIZE } from '../../http/paging.js';
import {
  defineDurableJob,
  scheduleDurable,
  startDurableJobs,
  type DurableJob,
  type Firing,
} from '../../jobs/durable.js';
import { logger } from '../../logger.js';
import { webhook } from '../automation/index.js';
import { QueueIntegrationEntity, type QueueIntegration } from './integration.entity.js';
import { signingSecretOf } from './integrations.service.js';
import { applyReply, markHandedOff } from './effects.js';

export interface DeliveryRow {
  id: number;
  companyId: number;
  integrationId: number;
  integrationName: string;
  ticketId: number | null;
  messageId: number | null;
  deliveryId: string;
  payload: WebhookPayload;
  status: DeliveryStatus;
  attempts: number;
  lastError: string | null;
  lastStatus: number | null;
  createdAt: Date;
  updatedAt: Date;
}

export const deliveryView = (row: DeliveryRow): DeliveryAnswer => ({
  id: row.id,
  integrationId: row.integrationId,
  integrationName: row.integrationName,
  ticketId: row.ticketId,
  messageId: row.messageId,
  deliveryId: row.deliveryId,
  status: row.status,
  attempts: row.attempts,
  lastError: row.lastError,
  lastStatus: row.lastStatus,
  createdAt: new Date(row.createdAt).toISOString(),
  updatedAt: new Date(row.updatedAt).toISOString(),
});

const DELIVERY_SQL = `
  SELECT d.id, d."companyId", d."integrationId", i.name AS "integrationName", d."ticketId",
         d."messageId", d."deliveryId", d.payload, d.status, d.attempts, d."lastError",
         d."lastStatus", d."createdAt", d."updatedAt"
    FROM webhook_deliveries d JOIN queue_integrations i ON i.id = d."integrationId"`;

/** The clock deliveries are due by (tests move it). */
let clock: () => Date = () => new Date();
export const setDeliveryClock = (next: (() => Date) | null) => {
  clock = next ?? (() => new Date());
};

export const webhookDeliveryJob = defineDurableJob({
  kind: 'integration-webhook',
  payload: z.object({ deliveryRowId: z.number().int().positive() }),
  now: () => clock(),
  run: (app, firing) => attempt(app, firing),
  // Failures the schedule handles are not thrown; a throw is our own fault (DB down): retry.
  maxAttempts: 10,
});

export const startDeliveries = (app: AppContext) =>
  startDurableJobs(app, [webhookDeliveryJob as DurableJob<unknown>]);

/** Queues the delivery of a payload (once per integration and message). */
export async function enqueueDelivery(
  app: AppContext,
  integration: QueueIntegration,
  payload: WebhookPayload,
  ticketId: number,
  messageId: number,
): Promise<void> {
  const [row] = (await app.ds.query(
    `INSERT INTO webhook_deliveries ("companyId", "integrationId", "ticketId", "messageId",
            "deliveryId", payload)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT ("integrationId", "messageId") DO NOTHING RETURNING id`,
    [integration.companyId, integration.id, ticketId, messageId, payload.id, payload],
  )) as { id: number }[];
  if (!row) return; // this message was handed over already (an event handled twice)
  await scheduleDurable(app, webhookDeliveryJob, {
    key: `delivery:${row.id}`,
    companyId: integration.companyId,
    dueAt: clock(),
    payload: { deliveryRowId: row.id },
  });
}

async function attempt(
  app: AppContext,
  firing: Firing<{ deliveryRowId: number }>,
): Promise<void | { rescheduleAt: Date }> {
  const tx = firing.tx;
  const [row] = (await tx.query(`${DELIVERY_SQL} WHERE d.id = $1 AND d.status = 'pending'`, [
    firing.payload.deliveryRowId,
  ])) as DeliveryRow[];
  if (!row) return;
  const integration = await tx
    .getRepository(QueueIntegrationEntity)
    .findOneBy({ id: row.integrationId, companyId: row.companyId });
  if (!integration) return;
  const secret = signingSecretOf(app, integration);
  const delivered = secret.ok
    ? await webhook.deliverWebhook({
        url: integration.urlN8N,
        secret: secret.value,
        payload: row.payload,
        expectReply: true,
      })
    : secret;
  const attempts = row.attempts + 1;
  if (delivered.ok) {
    await tx.query(
      `UPDATE webhook_deliveries SET status = 'delivered', attempts = $2, "lastStatus" = $3,
              "lastError" = NULL, "updatedAt" = now() WHERE id = $1`,
      [row.id, attempts, delivered.value.status],
    );
    if (delivered.value.reply && row.ticketId != null) {
      await applyReply(app, integration, row.ticketId, row.deliveryId, delivered.value.reply);
    }
    return;
  }
  const wait = webhook.nextRetryDelayMs(attempts, delivered);
  const dead = wait === null;
  await tx.query(
    `UPDATE webhook_deliveries SET status = $2, attempts = $3, "lastStatus" = $4, "lastError" = $5,
            "updatedAt" = now() WHERE id = $1`,
    [
      row.id,
      dead ? 'dead' : 'pending',
      attempts,
      delivered.status ?? null,
      `${delivered.code}: ${delivered.message}`.slice(0, 2000),
    ],
  );
  logger.warn(
    { integrationId: integration.id, delivery: row.deliveryId, attempts, code: delivered.code },
    dead ? 'webhook delivery dead-lettered' : 'webhook delivery failed, will retry',
  );
  if (dead) {
    // The customer is not left talking to nobody: the ticket waits in its queue for an agent.
    if (row.ticketId != null)
      await markHandedOff(app, integration.companyId, row.ticketId, integration.id, 'failed');
    return;
  }
  return { rescheduleAt: new Date(clock().getTime() + wait) };
}

export async function listDeliveries(
  app: AppContext,
  companyId: number,
  query: { status?: DeliveryStatus; integrationId?: number; pageNumber: number },
): Promise<{ rows: DeliveryRow[]; hasMore: boolean }> {
  const params: unknown[] = [companyId];
  let where = 'WHERE d."companyId" = $1';
  if (query.status) {
    params.push(query.status);
    where += ` AND d.status = $${params.length}`;
  }
  if (query.integrationId) {
    params.push(query.integrationId);
    where += ` AND d."integrationId" = $${params.length}`;
  }
  params.push(PAGE_SIZE + 1, (query.pageNumber - 1) * PAGE_SIZE);
  const rows = (await app.ds.query(
    `${DELIVERY_SQL} ${where} ORDER BY d.id DESC LIMIT $${params.length - 1} OFFSET $${params.length}`,
    params,
  )) as DeliveryRow[];
  return { rows: rows.slice(0, PAGE_SIZE), hasMore: rows.length > PAGE_SIZE };
}

/** A dead letter goes out again: same payload and `webhook-id`, the schedule from the start. */
export async function replayDelivery(
  app: AppContext,
  companyId: number,
  id: number,
): Promise<DeliveryRow> {
  const [row] = (await app.ds.query(`${DELIVERY_SQL} WHERE d.id = $1 AND d."companyId" = $2`, [
    id,
    companyId,
  ])) as DeliveryRow[];
  if (!row) throw new AppError('ERR_NO_DELIVERY_FOUND');
  if (row.status !== 'dead') throw new AppError('ERR_DELIVERY_NOT_DEAD');
  await app.ds.query(
    `UPDATE webhook_deliveries SET status = 'pending', attempts = 0, "updatedAt" = now()
      WHERE id = $1 AND "companyId" = $2`,
    [id, companyId],
  );
  await scheduleDurable(app, webhookDeliveryJob, {
    key: `delivery:${row.id}`,
    companyId,
    dueAt: clock(),
    payload: { deliveryRowId: row.id },
  });
  return { ...row, status: 'pending', attempts: 0 };
}
