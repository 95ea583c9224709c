// The routing step (issue 5): runs after the inbound pipeline commits a customer's message and
// applies the rules in their order until one deals with it.
import type { AppContext } from '../../context.js';
import type { DomainEvent } from '../changes/index.js';
import { loadStoredInbound, loadStoredInboundMany, type StoredInbound } from '../messages/index.js';
import { defineModule } from '../manifest.js';
import { afterRatingRule } from '../rating/index.js';
import { ratingRule } from '../rating/index.js';
import { sendBotMessage } from './bot-send.js';
import { versionAndStates } from './config-cache.js';
import { routingContext, type RoutingContext, type RoutingReads } from './context.js';
import {
  agentRule,
  botTimeRule,
  companyHoursRule,
  groupRule,
  optionTreeRule,
  queueChoiceRule,
  type Outcome,
} from './rules.js';

/** Sent when the setting `call` is disabled and a customer calls. */
export const CALLS_DISABLED_MESSAGE =
  '*Mensagem Automática:*\n\nAs chamadas de voz e vídeo estão desabilitadas para este WhatsApp, favor enviar uma mensagem de texto. Obrigado!';

/**
 * The extension point for AI prompts and integrations: a module lists its handlers in its
 * manifest (`listeners.handOff`). A handler that takes the message answers true and the bot
 * stays quiet.
 */
export type HandOff = (
  ctx: RoutingContext,
  target: { promptId: number | null; integrationId: number | null },
) => Promise<boolean>;

/** A queue or connection with a prompt or integration hands the message to a handler. */
async function handOffRule(ctx: RoutingContext): Promise<Outcome> {
  const queue = ctx.queues.find((q) => q.id === ctx.ticket.queueId);
  const target = {
    promptId: queue?.promptId ?? ctx.connection.promptId ?? null,
    integrationId: queue?.integrationId ?? null,
  };
  if (target.promptId == null && target.integrationId == null) return 'next';
  for (const handOff of ctx.app.hooks.handOff) if (await handOff(ctx, target)) return 'done';
  return 'next';
}

/**
 * A ticket that enters a queue with a prompt or an integration (the queue menu's choice, or the
 * only queue) hands the same message over at once: the integration's flow starts with it.
 */
async function queueChoiceThenHandOffRule(ctx: RoutingContext): Promise<Outcome> {
  const before = ctx.ticket.queueId;
  const outcome = await queueChoiceRule(ctx);
  if (before == null && ctx.ticket.queueId != null) await handOffRule(ctx);
  return outcome;
}

/** Setting `call`: a call is already stored as a call_log message; disabled calls get a reply. */
async function callRule(ctx: RoutingContext): Promise<Outcome> {
  if (ctx.stored.message.mediaType !== 'call_log') return 'next';
  if ((await ctx.setting('call')) === 'disabled') {
    await sendBotMessage(ctx.app, ctx.companyId, ctx.ticket.id, CALLS_DISABLED_MESSAGE, {
      key: `call:${ctx.stored.message.id}`,
    });
  }
  return 'done';
}

/**
 * The rules in the order issue 5 lists them (calls and pending ratings come first); a thank-you
 * right after a rating joins the closed ticket before anything else (issue 13). A function, not a
 * constant: two rules come from the rating module, which imports this one back, so the list is
 * read when used rather than at load.
 */
export const RULES = (): ((ctx: RoutingContext) => Outcome | Promise<Outcome>)[] => [
  afterRatingRule,
  callRule,
  ratingRule,
  groupRule,
  agentRule,
  companyHoursRule,
  // Before botTimeRule: a queue's integration or prompt keeps the conversation after the menus
  // are done, until it hands off.
  handOffRule,
  botTimeRule,
  queueChoiceThenHandOffRule,
  optionTreeRule,
];

export async function routeInbound(
  app: AppContext,
  stored: StoredInbound,
  reads?: RoutingReads,
): Promise<void> {
  if (stored.message.fromMe) return;
  const ctx = await routingContext(app, stored, reads);
  if (!ctx) return;
  for (const rule of RULES()) if ((await rule(ctx)) === 'done') return;
}

/** The `routing` consumer: a customer's message the session stored goes through the rules. */
export async function routeStored(app: AppContext, event: DomainEvent<'message.stored'>) {
  if (event.payload.fromMe) return;
  const stored = await loadStoredInbound(app, event);
  if (stored) await routeInbound(app, stored);
}

/**
 * A run of `message.stored` events: the messages, their tickets, the configuration version and
 * the bot states are read once for a stretch of the run, then each message goes through the rules
 * in order, as `routeStored` would. A stretch ends before a message that opened a ticket (its
 * rules may merge that ticket into another: after-rating), and a ticket's second message in a
 * stretch is read afresh, after the first one's effects.
 */
export async function routeStoredMany(app: AppContext, events: DomainEvent<'message.stored'>[]) {
  const wanted = events.filter(
    (e) => !e.payload.fromMe && e.payload.origin === 'inbound' && e.payload.whatsappId != null,
  );
  for (let i = 0; i < wanted.length;) {
    const first = wanted[i]!;
    if (first.payload.ticketCreated) {
      await routeStored(app, first);
      i++;
      continue;
    }
    let end = i + 1;
    while (
      end < wanted.length &&
      !wanted[end]!.payload.ticketCreated &&
      wanted[end]!.companyId === first.companyId
    )
      end++;
    const stretch = wanted.slice(i, end);
    i = end;
    const stored = await loadStoredInboundMany(app, stretch);
    const ticketIds = [...new Set(stretch.map((e) => e.payload.ticketId))];
    const { version, states } = await versionAndStates(app, first.companyId, ticketIds);
    const routed = new Set<number>();
    for (const [n, event] of stretch.entries()) {
      const ticketId = event.payload.ticketId;
      if (routed.has(ticketId)) {
        await routeStored(app, event);
        continue;
      }
      routed.add(ticketId);
      const one = stored[n];
      if (one) await routeInbound(app, one, { version, state: states.get(ticketId) });
    }
  }
}

// The manifest references other files' bindings only as entity schemas, hoisted functions or
// inside arrows, so an import cycle between modules never reads one before it is set.
export const routingModule = defineModule({
  name: 'routing',
  consumers: [
    {
      name: 'routing',
      on: { 'message.stored': routeStored },
      runs: { 'message.stored': routeStoredMany },
    },
  ],
});

// What other modules use (they import this module only through this file).
export {
  closeTicketBySystem,
  sendBotMessage,
  setTicketQueue,
  transferTicketBySystem,
} from './bot-send.js';
export { loadBotState, saveBotState } from './bot-state.js';
export { now } from './clock.js';
export { loadConnection, renderFor, type RoutingContext, settingOf } from './context.js';
export { choiceLine } from './menus.js';
export { onTicketTransferred } from './notices.js';
