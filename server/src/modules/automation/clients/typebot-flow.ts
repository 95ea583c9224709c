import { z } from 'zod';
import { TYPEBOT_DEFAULTS } from '@atende/shared';
import {
  isSessionGone,
  type TypebotAction,
  type TypebotBubble,
  type TypebotChatAnswer,
  type TypebotClient,
  type TypebotInput,
} from './typebot.js';
import { markdownToWhatsApp, richTextToWhatsApp } from './typebot-markup.js';
import { ok, type Result } from './result.js';

/**
 * How a customer's message goes through a Typebot flow (issue 18 item 2): keywords first, the
 * choice the customer typed mapped to the item Typebot expects, the answer's bubbles turned
 * into WhatsApp sends in order with their pauses, a gone session restarted with the message
 * replayed, and the hand-off when the flow ends or asks for it.
 */

/** One WhatsApp send, after waiting `delayMs` since the previous one. */
export type ItemContent =
  | { kind: 'text'; text: string }
  | { kind: 'media'; media: 'image' | 'video' | 'audio'; url: string };
export type OutgoingItem = ItemContent & { delayMs: number };

/**
 * A text bubble that is exactly `#` and a JSON object asks us to act instead of being sent:
 * `#{"queueId": 3}` hands the ticket to queue 3, `#{"close": true}` closes it.
 */
const directiveSchema = z.union([
  z.strictObject({ queueId: z.coerce.number().int().positive() }),
  z.strictObject({ close: z.literal(true) }),
]);
export type Directive = { type: 'transfer'; queueId: number } | { type: 'close' };

export function directiveOf(text: string): Directive | null {
  const match = /^#\s*(\{[\s\S]*\})$/.exec(text.trim());
  if (!match) return null;
  try {
    const parsed = directiveSchema.safeParse(JSON.parse(match[1]!));
    if (!parsed.success) return null;
    return 'queueId' in parsed.data
      ? { type: 'transfer', queueId: parsed.data.queueId }
      : { type: 'close' };
  } catch {
    return null;
  }
}

const textContent = z.union([
  z.looseObject({ type: z.literal('markdown'), markdown: z.string() }),
  z.looseObject({ richText: z.array(z.unknown()) }),
]);
const urlContent = z.looseObject({ url: z.string().min(1) });
const videoContent = z.looseObject({ url: z.string().min(1), type: z.string().optional() });

/** A bubble as WhatsApp text or media; null for what WhatsApp cannot show (custom embeds). */
export function bubbleItem(bubble: TypebotBubble): ItemContent | null {
  switch (bubble.type) {
    case 'text': {
      const content = textContent.safeParse(bubble.content);
      if (!content.success) return null;
      const text =
        'markdown' in content.data
          ? markdownToWhatsApp(String(content.data.markdown))
          : richTextToWhatsApp(content.data.richText);
      return text === '' ? null : { kind: 'text', text };
    }
    case 'image':
    case 'audio': {
      const content = urlContent.safeParse(bubble.content);
      return content.success ? { kind: 'media', media: bubble.type, url: content.data.url } : null;
    }
    case 'video': {
      const content = videoContent.safeParse(bubble.content);
      if (!content.success) return null;
      // Only a file URL is a WhatsApp video; YouTube, Vimeo and the like go as their link.
      const isFile = content.data.type === undefined || content.data.type === 'url';
      return isFile
        ? { kind: 'media', media: 'video', url: content.data.url }
        : { kind: 'text', text: content.data.url };
    }
    case 'embed': {
      const content = urlContent.safeParse(bubble.content);
      return content.success ? { kind: 'text', text: content.data.url } : null;
    }
    default:
      return null;
  }
}

/** A Typebot `wait` action in milliseconds (0 when it is not a wait). */
const waitMs = (action: TypebotAction): number => {
  const seconds = Number(action.wait?.secondsToWaitFor ?? 0);
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 0;
};

/** The items of a choice input: "1 - Vendas", one per line. */
export function choicePrompt(input: TypebotInput | null | undefined): string | null {
  if (!input?.items?.length || !/choice input$|^buttons$/.test(input.type)) return null;
  return input.items
    .map((item, i) => `${i + 1} - ${item.content ?? item.title ?? item.value ?? ''}`)
    .join('\n');
}

export interface Rendered {
  items: OutgoingItem[];
  directive: Directive | null;
}

/**
 * The answer's bubbles in order, then the choice list: `delayMessageMs` between two sends (none
 * before the first when `leading`), plus every `wait` after the bubble it follows (a wait
 * without a bubble comes first).
 */
export function renderAnswer(
  answer: TypebotChatAnswer,
  delayMessageMs: number,
  leading = true,
): Rendered {
  const items: OutgoingItem[] = [];
  let directive: Directive | null = null;
  const waitsAfter = new Map<string, number>();
  let pending = 0;
  for (const action of answer.clientSideActions ?? []) {
    const ms = waitMs(action);
    if (!ms) continue;
    if (action.lastBubbleBlockId)
      waitsAfter.set(
        action.lastBubbleBlockId,
        (waitsAfter.get(action.lastBubbleBlockId) ?? 0) + ms,
      );
    else pending += ms;
  }
  const push = (item: ItemContent) => {
    const gap = items.length === 0 && leading ? 0 : delayMessageMs;
    items.push({ ...item, delayMs: gap + pending });
    pending = 0;
  };
  for (const bubble of answer.messages) {
    const item = bubbleItem(bubble);
    const asked = item?.kind === 'text' ? directiveOf(item.text) : null;
    if (asked) directive ??= asked;
    else if (item) push(item);
    if (bubble.id) pending += waitsAfter.get(bubble.id) ?? 0;
  }
  const choices = choicePrompt(answer.input);
  if (choices) push({ kind: 'text', text: choices });
  return { items, directive };
}

/** Lower case, no accents, single spaces: how typed choices are compared. */
export const normalizeChoice = (text: string): string =>
  text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();

/**
 * What to send Typebot for the customer's text: for a choice input, the item's content when
 * the text is its number or its words (case- and accent-insensitive; "1, 3" for multiple
 * choice); null when it matches no item. Any other input gets the text as is.
 */
export function answerFor(input: TypebotInput | null | undefined, text: string): string | null {
  if (!input?.items?.length || !/choice input$|^buttons$/.test(input.type)) return text;
  const labels = input.items.map((item) => item.content ?? item.title ?? item.value ?? '');
  const pick = (part: string): string | null => {
    const trimmed = part.trim();
    if (/^\d+$/.test(trimmed)) return labels[Number(trimmed) - 1] ?? null;
    const wanted = normalizeChoice(trimmed);
    return labels.find((label) => normalizeChoice(label) === wanted) ?? null;
  };
  const whole = pick(text);
  if (whole !== null || !input.options?.isMultipleChoice) return whole;
  const parts = text.split(',').map(pick);
  return parts.every((p) => p !== null) ? parts.join(', ') : null;
}

export interface TypebotSettings {
  delayMessageMs: number;
  expiresMinutes: number;
  keywordFinish?: string | null;
  keywordRestart?: string | null;
  unknownMessage?: string | null;
  restartMessage?: string | null;
}

export const DEFAULT_TYPEBOT_SETTINGS: TypebotSettings = {
  delayMessageMs: TYPEBOT_DEFAULTS.delayMessageMs,
  expiresMinutes: TYPEBOT_DEFAULTS.expiresMinutes,
};

/** Finish or restart keyword, compared trimmed and case-insensitive; empty keywords never match. */
export function keywordOf(text: string, settings: TypebotSettings): 'finish' | 'restart' | null {
  const said = text.trim().toLowerCase();
  if (said === '') return null;
  if (settings.keywordFinish?.trim() && said === settings.keywordFinish.trim().toLowerCase())
    return 'finish';
  if (settings.keywordRestart?.trim() && said === settings.keywordRestart.trim().toLowerCase())
    return 'restart';
  return null;
}

/** What we keep about a ticket's Typebot conversation between messages. */
export interface TypebotSession {
  sessionId: string;
  /** The input Typebot waits for (to map a typed choice), or null. */
  input: TypebotInput | null;
  lastActivityAt: string;
}

/** Idle for longer than `expiresMinutes` (0 or less: never). */
export const isExpired = (session: TypebotSession, now: Date, expiresMinutes: number): boolean =>
  expiresMinutes > 0 &&
  now.getTime() - new Date(session.lastActivityAt).getTime() > expiresMinutes * 60_000;

export type HandOff =
  | { reason: 'finished' }
  | { reason: 'keyword' }
  | { reason: 'transfer'; queueId: number }
  | { reason: 'close' };

export interface TypebotTurn {
  items: OutgoingItem[];
  /** The session to keep, or null when the conversation left Typebot. */
  session: TypebotSession | null;
  handOff: HandOff | null;
  /** Typebot had lost the session: a new one was started and the message replayed. */
  restarted: boolean;
}

function settle(
  sessionId: string,
  answer: TypebotChatAnswer,
  rendered: Rendered,
  now: Date,
  restarted: boolean,
  before: OutgoingItem[] = [],
): TypebotTurn {
  const d = rendered.directive;
  const handOff: HandOff | null = d
    ? d.type === 'transfer'
      ? { reason: 'transfer', queueId: d.queueId }
      : { reason: 'close' }
    : answer.input
      ? null
      : { reason: 'finished' };
  return {
    items: [...before, ...rendered.items],
    session: handOff
      ? null
      : { sessionId, input: answer.input ?? null, lastActivityAt: now.toISOString() },
    handOff,
    restarted,
  };
}

/** A new session and its opening bubbles, after `before` (a restart message). */
async function start(
  client: TypebotClient,
  settings: TypebotSettings,
  turn: Required<TurnOptions>,
  before: OutgoingItem[],
): Promise<Result<TypebotTurn>> {
  const { now } = turn;
  const started = await client.startChat({ prefilledVariables: turn.variables });
  if (!started.ok) return started;
  const rendered = renderAnswer(started.value, settings.delayMessageMs, before.length === 0);
  return ok(settle(started.value.sessionId, started.value, rendered, now, false, before));
}

/** Typebot lost the session: start again and give the new flow the customer's message. */
async function replay(
  client: TypebotClient,
  settings: TypebotSettings,
  text: string,
  turn: Required<TurnOptions>,
): Promise<Result<TypebotTurn>> {
  const { now } = turn;
  const started = await client.startChat({ prefilledVariables: turn.variables });
  if (!started.ok) return started;
  const opening = renderAnswer(started.value, settings.delayMessageMs);
  const first = settle(started.value.sessionId, started.value, opening, now, true);
  const answer = first.session ? answerFor(first.session.input, text) : null;
  if (first.handOff || answer === null) return ok(first);
  const continued = await client.continueChat(started.value.sessionId, answer);
  if (!continued.ok) return continued;
  const rendered = renderAnswer(
    continued.value,
    settings.delayMessageMs,
    opening.items.length === 0,
  );
  return ok(settle(started.value.sessionId, continued.value, rendered, now, true, opening.items));
}

/**
 * One customer message through the flow. Never throws; a failed call is the failure (the
 * caller hands the ticket to its queue, the message is already stored).
 */
export interface TurnOptions {
  now?: Date;
  /** Typebot variables set when a session starts (the contact's name, number...). */
  variables?: Record<string, string>;
}

export async function typebotTurn(
  client: TypebotClient,
  settings: TypebotSettings,
  session: TypebotSession | null,
  text: string,
  options: TurnOptions = {},
): Promise<Result<TypebotTurn>> {
  const turn = { now: options.now ?? new Date(), variables: options.variables ?? {} };
  const { now } = turn;
  const keyword = keywordOf(text, settings);
  if (keyword === 'finish')
    return ok({ items: [], session: null, handOff: { reason: 'keyword' }, restarted: false });
  if (keyword === 'restart') {
    const notice: OutgoingItem[] = settings.restartMessage?.trim()
      ? [{ kind: 'text', text: settings.restartMessage, delayMs: 0 }]
      : [];
    return start(client, settings, turn, notice);
  }
  const live = session && !isExpired(session, now, settings.expiresMinutes) ? session : null;
  // A new conversation (or one idle past `expires`): the message opens the flow.
  if (!live) return start(client, settings, turn, []);

  const answer = answerFor(live.input, text);
  if (answer === null && settings.unknownMessage?.trim()) {
    return ok({
      items: [{ kind: 'text', text: settings.unknownMessage, delayMs: 0 }],
      session: { ...live, lastActivityAt: now.toISOString() },
      handOff: null,
      restarted: false,
    });
  }
  const continued = await client.continueChat(live.sessionId, answer ?? text);
  if (!continued.ok)
    return isSessionGone(continued) ? replay(client, settings, text, turn) : continued;
  return ok(
    settle(
      live.sessionId,
      continued.value,
      renderAnswer(continued.value, settings.delayMessageMs),
      now,
      false,
    ),
  );
}
