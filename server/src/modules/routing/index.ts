// The routing step (issue 5): runs after the inbound pipeline commits a customer's message and
// applies the rules in their order until one deals with it.
import type { AppContext } from '../../context.js';
import type { DomainEvent } from '../changes/index.js';
import { loadStoredInbound, type StoredInbound } from '../messages/index.js';
import { defineModule } from '../manifest.js';
import { afterRatingRule } from '../rating/index.js';
import { ratingRule } from '../rating/index.js';
import { sendBotMessage } from './bot-send.js';
import { routingContext, type RoutingContext } from './context.js';
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
  botTimeRule,
  handOffRule,
  queueChoiceRule,
  optionTreeRule,
];

export async function routeInbound(app: AppContext, stored: StoredInbound): Promise<void> {
  if (stored.message.fromMe) return;
  const ctx = await routingContext(app, stored);
  if (!ctx) return;
  for (const rule of RULES()) if ((await rule(ctx)) === 'done') return;
}

/** The `routing` consumer: a customer's message the session stored goes through the rules. */
export async function routeStored(app: AppContext, event: DomainEvent<'message.stored'>) {
  if (event.payload.fromMe) return;
  const stored = await loadStoredInbound(app, event);
  if (stored) await routeInbound(app, stored);
}

// The manifest references other files' bindings only as entity schemas, hoisted functions or
// inside arrows, so an import cycle between modules never reads one before it is set.
export const routingModule = defineModule({
  name: 'routing',
  consumers: [{ name: 'routing', on: { 'message.stored': routeStored } }],
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
