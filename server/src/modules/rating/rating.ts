// Rating (setting userRating, core §9 scale 1 to 3): finishing a ticket asks the customer to
// rate; their answer is recorded, the completion message goes out and the ticket closes. Any
// other answer asks once more, then the ticket closes without a rating.
import type { AppContext } from '../../context.js';
import { loadTicket } from '../tickets/index.js';
import { loadBotState, saveBotState } from '../routing/index.js';
import { closeTicketBySystem, sendBotMessage } from '../routing/index.js';
import { now } from '../routing/index.js';
import { loadConnection, renderFor, settingOf, type RoutingContext } from '../routing/index.js';
import { choiceLine } from '../routing/index.js';

export const RATING_SCALE = [
  { rate: 1, label: 'Insatisfeito' },
  { rate: 2, label: 'Satisfeito' },
  { rate: 3, label: 'Muito satisfeito' },
] as const;

export const ratingMenu = (message: string) =>
  [message.trim(), RATING_SCALE.map((r) => choiceLine(String(r.rate), r.label)).join('\n')]
    .filter(Boolean)
    .join('\n\n');

/**
 * Called when an agent finishes a ticket. With userRating enabled (and a non-group ticket on a
 * connection) it sends the rating question and keeps the ticket open until the answer; it
 * answers true then, and the caller must not close the ticket. Otherwise false: close as usual.
 */
export async function startRating(
  app: AppContext,
  companyId: number,
  ticketId: number,
  userId: number | null,
): Promise<boolean> {
  if ((await settingOf(app, companyId)('userRating')) !== 'enabled') return false;
  const ticket = await loadTicket(app.ds, companyId, ticketId);
  if (ticket.isGroup || ticket.whatsappId == null || ticket.status === 'closed') return false;
  const already = (await app.ds.query('SELECT 1 FROM user_ratings WHERE "ticketId" = $1', [
    ticketId,
  ])) as unknown[];
  if (already.length) return false;
  // 'Finalizar' on a waiting ticket no agent ever answered closes it: there is nobody to rate.
  if (ticket.status === 'pending' && !(await agentAnswered(app, ticketId))) return false;
  const connection = await loadConnection(app, companyId, ticket.whatsappId);
  if (!connection) return false;
  const state = await loadBotState(app.ds, ticketId);
  await saveBotState(app.ds, {
    ticketId,
    companyId,
    stage: 'rating',
    queueOptionId: null,
    botUses: state?.botUses ?? 0,
    ratingAsks: 0,
    ratingUserId: userId ?? ticket.userId,
  });
  const text = renderFor(ticket, now())(connection.ratingMessage);
  await sendBotMessage(app, companyId, ticketId, ratingMenu(text), {
    key: `rating:${ticketId}:0`,
    origin: 'rating',
  });
  return true;
}

async function agentAnswered(app: AppContext, ticketId: number): Promise<boolean> {
  const rows = (await app.ds.query(
    'SELECT 1 FROM messages WHERE "ticketId" = $1 AND "fromMe" AND "userId" IS NOT NULL LIMIT 1',
    [ticketId],
  )) as unknown[];
  return rows.length > 0;
}

/** The answer of a ticket waiting for its rating. */
export async function ratingRule(ctx: RoutingContext): Promise<'done' | 'next'> {
  const state = ctx.state;
  if (state?.stage !== 'rating') return 'next';
  const { app, companyId, ticket } = ctx;
  const rate = /^[1-3]$/.test(ctx.answer) ? Number(ctx.answer) : undefined;
  if (rate === undefined && state.ratingAsks < 1) {
    await saveBotState(app.ds, { ...state, ratingAsks: state.ratingAsks + 1 });
    await sendBotMessage(
      app,
      companyId,
      ticket.id,
      ratingMenu(ctx.render(ctx.connection.ratingMessage)),
      { key: `rating:${ticket.id}:1`, origin: 'rating' },
    );
    return 'done';
  }
  if (rate !== undefined) {
    await app.ds.query(
      `INSERT INTO user_ratings ("companyId", "ticketId", "userId", rate) VALUES ($1, $2, $3, $4)
       ON CONFLICT ("ticketId") DO NOTHING`,
      [companyId, ticket.id, state.ratingUserId, rate],
    );
    await sendBotMessage(app, companyId, ticket.id, ctx.render(ctx.connection.complationMessage), {
      key: `rating:${ticket.id}:done`,
      origin: 'rating',
    });
  }
  await saveBotState(app.ds, { ...state, stage: 'done' });
  await closeTicketBySystem(app, companyId, ticket.id);
  return 'done';
}
