// The routing rules of issue 5, one function each, run in this order by routeInbound (index.ts).
// Each answers 'done' (the message is dealt with) or 'next' (the following rule decides).
import type { QueueOption } from '../queue-options/index.js';
import { saveBotState, type BotState } from './bot-state.js';
import { sendBotMessage, setTicketQueue } from './bot-send.js';
import type { RoutingContext, RoutingQueue } from './context.js';
import { isWithinSchedule } from './hours.js';
import { optionsMenu, queueMenu } from './menus.js';

export type Outcome = 'done' | 'next';

const MINUTE = 60_000;

function stateOf(ctx: RoutingContext): Omit<BotState, 'botStartedAt'> & { botStartedAt?: Date } {
  return (
    ctx.state ?? {
      ticketId: ctx.ticket.id,
      companyId: ctx.companyId,
      stage: 'menu',
      queueOptionId: null,
      botUses: 0,
      ratingAsks: 0,
      ratingUserId: null,
    }
  );
}

async function save(ctx: RoutingContext, changes: Partial<BotState>): Promise<void> {
  const next = { ...stateOf(ctx), ...changes };
  await saveBotState(ctx.app.ds, next);
  ctx.state = { botStartedAt: ctx.now, ...next } as BotState;
}

const say = (ctx: RoutingContext, text: string, media?: RoutingQueue | QueueOption) =>
  sendBotMessage(ctx.app, ctx.companyId, ctx.ticket.id, ctx.render(text), {
    media: media?.mediaPath ? { mediaPath: media.mediaPath, mediaName: media.mediaName } : null,
  });

/** The bot stops; the ticket waits for an agent. */
async function stopBot(ctx: RoutingContext): Promise<Outcome> {
  await save(ctx, { stage: 'done' });
  if (ctx.ticket.chatbot) {
    await setTicketQueue(ctx.app, ctx.companyId, ctx.ticket.id, ctx.ticket.queueId, false);
  }
  return 'done';
}

/**
 * Shows a menu, counting it as a bot use (admin §2, maxUseBotQueues): once the connection's
 * maximum is reached the bot stops instead. A valid choice is not a use.
 */
async function showMenu(ctx: RoutingContext, text: string, media?: RoutingQueue | QueueOption) {
  const max = ctx.connection.maxUseBotQueues;
  const uses = ctx.state?.botUses ?? 0;
  if (max > 0 && uses >= max) return stopBot(ctx);
  await say(ctx, text, media);
  await save(ctx, { botUses: uses + 1 });
  return 'done' as const;
}

/** Setting CheckMsgIsGroup: group conversations never get the bot (the pipeline may skip them). */
export function groupRule(ctx: RoutingContext): Outcome {
  return ctx.ticket.isGroup ? 'done' : 'next';
}

/** A ticket an agent holds, or not waiting, is the agent's conversation. */
export function agentRule(ctx: RoutingContext): Outcome {
  return ctx.ticket.userId != null || ctx.ticket.status !== 'pending' ? 'done' : 'next';
}

/** scheduleType company: outside the company's hours the connection's message answers. */
export async function companyHoursRule(ctx: RoutingContext): Promise<Outcome> {
  if ((await ctx.setting('scheduleType')) !== 'company') return 'next';
  if (isWithinSchedule(await ctx.config.hours(), ctx.now)) return 'next';
  await say(ctx, ctx.connection.outOfHoursMessage);
  return 'done';
}

/** timeUseBotQueues (minutes): after that long with the bot, the ticket waits for an agent. */
export async function botTimeRule(ctx: RoutingContext): Promise<Outcome> {
  const state = ctx.state;
  if (!state || state.stage === 'done') return state ? 'done' : 'next';
  const limit = ctx.connection.timeUseBotQueues;
  if (limit > 0 && ctx.now.getTime() - new Date(state.botStartedAt).getTime() >= limit * MINUTE) {
    return stopBot(ctx);
  }
  return 'next';
}

/** scheduleType queue: a closed queue answers with its own message and keeps the ticket. */
async function queueClosed(ctx: RoutingContext, queue: RoutingQueue): Promise<boolean> {
  if ((await ctx.setting('scheduleType')) !== 'queue') return false;
  if (isWithinSchedule(queue.schedules ?? [], ctx.now)) return false;
  await say(ctx, queue.outOfHoursMessage);
  return true;
}

const optionsOf = (ctx: RoutingContext, queueId: number, parentId: number | null) =>
  ctx.config.options(queueId, parentId);

/** Puts the ticket in `queue`, greets with its message and media, and shows its options. */
async function enterQueue(ctx: RoutingContext, queue: RoutingQueue, greet: boolean) {
  const options = await optionsOf(ctx, queue.id, null);
  await setTicketQueue(ctx.app, ctx.companyId, ctx.ticket.id, queue.id, options.length > 0);
  ctx.ticket = { ...ctx.ticket, queueId: queue.id, chatbot: options.length > 0 };
  if (await queueClosed(ctx, queue)) return save(ctx, { stage: 'done' });
  const greeting = greet ? queue.greetingMessage : '';
  if (!options.length) {
    await say(ctx, greeting, queue);
    return save(ctx, { stage: 'done' });
  }
  const menu = optionsMenu(greeting, options, { back: false, mainMenu: ctx.queues.length > 1 });
  await say(ctx, menu, queue);
  await save(ctx, { stage: 'options', queueOptionId: null });
}

async function showQueueMenu(ctx: RoutingContext): Promise<Outcome> {
  const outcome = await showMenu(ctx, queueMenu(ctx.connection.greetingMessage, ctx.queues));
  if (ctx.state?.stage !== 'done') await save(ctx, { stage: 'menu', queueOptionId: null });
  return outcome;
}

/**
 * A ticket without a queue: one queue takes it at once; several get the greeting and the
 * numbered menu, and the customer's number picks the queue.
 */
export async function queueChoiceRule(ctx: RoutingContext): Promise<Outcome> {
  if (ctx.ticket.queueId != null) return 'next';
  if (!ctx.queues.length) return 'done';
  if (ctx.queues.length === 1) {
    const greet = (await ctx.setting('sendGreetingMessageOneQueues')) === 'enabled';
    await enterQueue(ctx, ctx.queues[0]!, greet);
    return 'done';
  }
  if (ctx.state?.stage !== 'menu') return showQueueMenu(ctx);
  const picked = /^\d+$/.test(ctx.answer) ? ctx.queues[Number(ctx.answer) - 1] : undefined;
  if (!picked) return showMenu(ctx, queueMenu(ctx.connection.greetingMessage, ctx.queues));
  await enterQueue(ctx, picked, true);
  return 'done';
}

/** `#` goes to the main menu: the queue menu, or the only queue's first level. */
async function mainMenu(ctx: RoutingContext, queue: RoutingQueue): Promise<Outcome> {
  if (ctx.queues.length > 1) {
    await setTicketQueue(ctx.app, ctx.companyId, ctx.ticket.id, null, true);
    ctx.ticket = { ...ctx.ticket, queueId: null };
    await save(ctx, { stage: 'menu' });
    return showQueueMenu(ctx);
  }
  await enterQueue(ctx, queue, true);
  return 'done';
}

async function showLevel(
  ctx: RoutingContext,
  queue: RoutingQueue,
  node: QueueOption | null,
  counted: boolean,
): Promise<Outcome> {
  const children = await optionsOf(ctx, queue.id, node?.id ?? null);
  const text = optionsMenu(node ? node.message : queue.greetingMessage, children, {
    back: node !== null || ctx.queues.length > 1,
    mainMenu: ctx.queues.length > 1 || node !== null,
  });
  await save(ctx, { stage: 'options', queueOptionId: node?.id ?? null });
  if (counted) return showMenu(ctx, text, node ?? queue);
  await say(ctx, text, node ?? queue);
  return 'done';
}

/**
 * The queue's option tree: a number walks down (sending the option's message and media), `0`
 * goes back a level, `#` returns to the main menu, anything else repeats the options. A leaf
 * ends the bot: the ticket waits in the queue for an agent.
 */
export async function optionTreeRule(ctx: RoutingContext): Promise<Outcome> {
  if (ctx.state?.stage !== 'options' || ctx.ticket.queueId == null) return 'next';
  const queue = ctx.queues.find((q) => q.id === ctx.ticket.queueId);
  if (!queue) return stopBot(ctx);
  const node = ctx.state.queueOptionId
    ? ((await ctx.config.option(ctx.state.queueOptionId)) ?? null)
    : null;
  if (ctx.answer === '#') return mainMenu(ctx, queue);
  if (ctx.answer === '0') {
    if (!node)
      return ctx.queues.length > 1 ? mainMenu(ctx, queue) : showLevel(ctx, queue, null, true);
    const parent = node.parentId ? ((await ctx.config.option(node.parentId)) ?? null) : null;
    return showLevel(ctx, queue, parent, false);
  }
  const children = await optionsOf(ctx, queue.id, node?.id ?? null);
  const chosen = children.find((o) => o.option === ctx.answer);
  if (!chosen) return showLevel(ctx, queue, node, true);
  const grandchildren = await optionsOf(ctx, queue.id, chosen.id);
  if (grandchildren.length) return showLevel(ctx, queue, chosen, false);
  await say(ctx, chosen.message, chosen);
  return stopBot(ctx);
}
