// The outcome of our sends: the WhatsApp id and the provider's copy are stored, a failure marks
// the message; and providers find that copy again to answer WhatsApp's retry requests.
import type { AppContext } from '../../context.js';
import type { OutboundJob, OutboundResult, ProviderPayloadLookup } from '../../whatsapp/hooks.js';
import { withChanges } from '../changes/index.js';
import { loadTicket } from '../tickets/index.js';
import { markSendFailed } from './outgoing.js';
import { loadMessage, messageChange } from './messages.queries.js';

export async function applyOutboundResult(
  app: AppContext,
  job: OutboundJob,
  result: OutboundResult,
): Promise<void> {
  if (job.messageId == null || (job.content.kind !== 'text' && job.content.kind !== 'media'))
    return;
  if (!result.ok) return markSendFailed(app, job.companyId, job.messageId, result.error);
  const sent = result.sent;
  await withChanges(app, job.companyId, async (tx, changes) => {
    const [rows] = (await tx.query(
      `UPDATE messages SET ack = GREATEST(ack, 1), wid = COALESCE($3, wid),
              "providerPayload" = COALESCE($4, "providerPayload"), "sendError" = NULL,
              "updatedAt" = now()
        WHERE id = $1 AND "companyId" = $2 RETURNING id`,
      [job.messageId, job.companyId, sent?.ref.id ?? null, sent?.providerPayload ?? null],
    )) as [{ id: number }[], number];
    if (!rows.length) return;
    const message = await loadMessage(tx, job.companyId, job.messageId!);
    changes.push(
      messageChange(message, await loadTicket(tx, job.companyId, message.ticketId), 'update'),
    );
    changes.events.push({
      type: 'message.sent',
      payload: { messageId: message.id, ticketId: message.ticketId },
    });
  });
}

/** Finds the provider's copy of a message we sent (for WhatsApp's retry requests). */
export const lookupPayload: ProviderPayloadLookup = async (app, connection, ref) => {
  const [row] = (await app.ds.query(
    `SELECT "providerPayload" FROM messages
      WHERE "companyId" = $1 AND "whatsappId" = $2 AND wid = $3 AND "fromMe" = $4`,
    [connection.companyId, connection.whatsappId, ref.id, ref.fromMe],
  )) as { providerPayload: string | null }[];
  return row?.providerPayload ?? undefined;
};
