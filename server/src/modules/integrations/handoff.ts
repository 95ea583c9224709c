// The integrations' `handOff` listener (routing's handOffRule): a customer's message on a waiting
// ticket whose queue has an integration goes to it until it hands the conversation off. Each
// ticket's conversation with an integration is a row of `integration_sessions` (the Typebot
// session, the last message handled, when and why it let go). A failing service never loses the
// message: it is stored already, the integration lets go and the ticket waits in its queue.
import type { AppContext } from '../../context.js';
import { logger } from '../../logger.js';
import { typebotFlow, webhook, type ClientFailure } from '../automation/index.js';
import type { RoutingContext } from '../routing/index.js';
import { enqueueDelivery } from './deliveries.js';
import { leave, markHandedOff, scheduleReplies, type Leave } from './effects.js';
import { QueueIntegrationEntity, type QueueIntegration } from './integration.entity.js';
import { dialogflowClientOf, typebotClientOf } from './integrations.service.js';

interface SessionRow {
  state: typebotFlow.TypebotSession | null;
  lastMessageId: number | null;
  handedOffAt: Date | null;
}

async function planAllowsIntegrations(app: AppContext, companyId: number): Promise<boolean> {
  const [row] = (await app.ds.query(
    `SELECT p."useIntegrations" AS allowed FROM companies c JOIN plans p ON p.id = c."planId"
      WHERE c.id = $1`,
    [companyId],
  )) as { allowed: boolean }[];
  return row?.allowed === true;
}

async function loadSession(
  app: AppContext,
  ticketId: number,
  integrationId: number,
): Promise<SessionRow | undefined> {
  const [row] = (await app.ds.query(
    `SELECT state, "lastMessageId", "handedOffAt" FROM integration_sessions
      WHERE "ticketId" = $1 AND "integrationId" = $2`,
    [ticketId, integrationId],
  )) as SessionRow[];
  return row;
}

async function saveSession(
  app: AppContext,
  integration: QueueIntegration,
  ticketId: number,
  messageId: number,
  state: typebotFlow.TypebotSession | null,
): Promise<void> {
  await app.ds.query(
    `INSERT INTO integration_sessions ("ticketId", "integrationId", "companyId", state,
            "lastMessageId")
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT ("ticketId", "integrationId") DO UPDATE
       SET state = EXCLUDED.state, "lastMessageId" = EXCLUDED."lastMessageId", "updatedAt" = now()`,
    [
      ticketId,
      integration.id,
      integration.companyId,
      state ? JSON.stringify(state) : null,
      messageId,
    ],
  );
}

/** The service failed: the integration lets go and the ticket waits in its queue. */
async function fallBack(
  ctx: RoutingContext,
  integration: QueueIntegration,
  failure: ClientFailure,
): Promise<true> {
  logger.warn(
    {
      integrationId: integration.id,
      ticketId: ctx.ticket.id,
      code: failure.code,
      why: failure.message,
    },
    'integration failed; the ticket falls back to its queue',
  );
  await markHandedOff(ctx.app, ctx.companyId, ctx.ticket.id, integration.id, 'failed');
  await leave(ctx.app, ctx.companyId, ctx.ticket.id, { type: 'queue' });
  return true;
}

const typebotLeave = (handOff: typebotFlow.HandOff): Leave =>
  handOff.reason === 'transfer'
    ? { type: 'transfer', queueId: handOff.queueId }
    : handOff.reason === 'close'
      ? { type: 'close' }
      : { type: 'queue' };

/** Media bubbles go as their link (WhatsApp previews it); text as converted markup. */
const itemText = (item: typebotFlow.OutgoingItem): string =>
  item.kind === 'text' ? item.text : item.url;

async function typebotHandOff(
  ctx: RoutingContext,
  integration: QueueIntegration,
  session?: SessionRow,
) {
  const message = ctx.stored.message;
  const settings: typebotFlow.TypebotSettings = {
    delayMessageMs: integration.typebotDelayMessage,
    expiresMinutes: integration.typebotExpires,
    keywordFinish: integration.typebotKeywordFinish,
    keywordRestart: integration.typebotKeywordRestart,
    unknownMessage: integration.typebotUnknownMessage,
    restartMessage: integration.typebotRestartMessage,
  };
  const turn = await typebotFlow.typebotTurn(
    typebotClientOf(integration),
    settings,
    session?.state ?? null,
    message.body,
    {
      now: ctx.now,
      variables: { name: ctx.ticket.contact.name, number: ctx.ticket.contact.number },
    },
  );
  if (!turn.ok) return fallBack(ctx, integration, turn);
  const { items, handOff } = turn.value;
  if (handOff)
    await markHandedOff(ctx.app, ctx.companyId, ctx.ticket.id, integration.id, handOff.reason);
  else await saveSession(ctx.app, integration, ctx.ticket.id, message.id, turn.value.session);
  await scheduleReplies(
    ctx.app,
    integration,
    ctx.ticket.id,
    `tb:${message.id}`,
    items.map((item) => ({ text: itemText(item), delayMs: item.delayMs })),
    handOff ? [typebotLeave(handOff)] : [],
  );
  return true;
}

async function dialogflowHandOff(ctx: RoutingContext, integration: QueueIntegration) {
  const message = ctx.stored.message;
  const client = dialogflowClientOf(ctx.app, integration);
  if (!client.ok) return fallBack(ctx, integration, client);
  const text = message.body.trim() || `[${message.mediaType}]`;
  const detected = await client.value.detectIntent(ctx.ticket.uuid, text);
  if (!detected.ok) return fallBack(ctx, integration, detected);
  const { texts, handOff } = detected.value;
  const then: Leave[] = [];
  if (handOff) {
    await markHandedOff(ctx.app, ctx.companyId, ctx.ticket.id, integration.id, handOff.reason);
    then.push(
      handOff.reason === 'close'
        ? { type: 'close' }
        : handOff.reason === 'transfer' && handOff.queueId
          ? { type: 'transfer', queueId: handOff.queueId }
          : { type: 'queue' },
    );
  } else await saveSession(ctx.app, integration, ctx.ticket.id, message.id, null);
  await scheduleReplies(
    ctx.app,
    integration,
    ctx.ticket.id,
    `df:${message.id}`,
    texts.map((t, i) => ({ text: t, delayMs: i === 0 ? 0 : integration.typebotDelayMessage })),
    then,
  );
  return true;
}

async function webhookHandOff(ctx: RoutingContext, integration: QueueIntegration) {
  const message = ctx.stored.message;
  const ticket = ctx.ticket;
  const payload = webhook.buildWebhookPayload({
    deliveryId: webhook.newDeliveryId(),
    occurredAt: new Date(message.createdAt),
    companyId: ctx.companyId,
    integrationId: integration.id,
    ticket: {
      id: ticket.id,
      uuid: ticket.uuid,
      status: ticket.status,
      queueId: ticket.queueId,
      userId: ticket.userId,
      whatsappId: ticket.whatsappId,
    },
    contact: {
      id: ticket.contact.id,
      name: ticket.contact.name,
      number: ticket.contact.number,
      email: ticket.contact.email,
    },
    message: {
      id: message.id,
      wid: message.wid,
      fromMe: message.fromMe,
      body: message.body,
      mediaType: message.mediaType,
      mediaUrl: message.mediaUrl && /^https?:\/\//.test(message.mediaUrl) ? message.mediaUrl : null,
      createdAt: new Date(message.createdAt),
    },
  });
  await enqueueDelivery(ctx.app, integration, payload, ticket.id, message.id);
  await saveSession(ctx.app, integration, ticket.id, message.id, null);
  return true;
}

/**
 * The listener: true when the queue's integration took the message. A ticket the integration
 * already let go of, an integration of a plan without `useIntegrations`, or a message handled
 * before (an event delivered twice) are not taken again.
 */
export async function integrationHandOff(
  ctx: RoutingContext,
  target: { promptId: number | null; integrationId: number | null },
): Promise<boolean> {
  if (target.integrationId == null) return false;
  if (ctx.ticket.userId != null || ctx.ticket.status !== 'pending') return false;
  const integration = await ctx.app.ds
    .getRepository(QueueIntegrationEntity)
    .findOneBy({ id: target.integrationId, companyId: ctx.companyId });
  if (!integration) return false;
  if (!(await planAllowsIntegrations(ctx.app, ctx.companyId))) return false;
  const session = await loadSession(ctx.app, ctx.ticket.id, integration.id);
  if (session?.handedOffAt) return false;
  if (session?.lastMessageId != null && session.lastMessageId >= ctx.stored.message.id) return true;
  switch (integration.type) {
    case 'typebot':
      return typebotHandOff(ctx, integration, session);
    case 'dialogflow':
      return dialogflowHandOff(ctx, integration);
    case 'n8n':
    case 'webhook':
      return webhookHandOff(ctx, integration);
  }
}
