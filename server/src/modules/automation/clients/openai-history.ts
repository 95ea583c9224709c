/**
 * The conversation a prompt sends to the model, as a pure function (issue 18 item 1): the
 * system prompt first, then the ticket's last `maxMessages` messages in chronological order,
 * ending with the current message exactly once. Internal notes, deleted messages and events
 * that carry no words (reactions, call logs, undecrypted placeholders) are left out; an audio
 * counts as its transcription.
 */

export interface HistoryMessage {
  id: number;
  fromMe: boolean;
  body: string;
  /** The messages table's mediaType ('chat', 'audio', 'image', 'application', ...). */
  mediaType: string;
  /** The speech-to-text of an audio, when it was transcribed. */
  transcription?: string | null;
  /** An internal note (agents only): never shown to the model. */
  internal?: boolean;
  isDeleted?: boolean;
  createdAt: Date | string;
}

export interface ChatTurn {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface HistoryInput {
  systemPrompt: string;
  /** The ticket's messages, in any order; may or may not contain `current`. */
  messages: readonly HistoryMessage[];
  /** The customer's message being answered. */
  current: HistoryMessage;
  /** How many messages (the current one included) the model sees; at least 1. */
  maxMessages: number;
}

/** Message kinds that carry no words the model could use. */
const SILENT_TYPES = new Set(['reaction', 'call_log', 'ciphertext']);

const LABELS: Record<string, string> = {
  image: '[image]',
  video: '[video]',
  sticker: '[sticker]',
  application: '[document]',
  locationMessage: '[location]',
  contactMessage: '[contact]',
  vcard: '[contacts]',
};

/** The words a message stands for, or null when it has none. */
export function messageText(message: HistoryMessage): string | null {
  if (message.internal || message.isDeleted || SILENT_TYPES.has(message.mediaType)) return null;
  if (message.mediaType === 'audio') {
    const heard = message.transcription?.trim();
    return heard ? heard : '[audio]';
  }
  const body = message.body.trim();
  const label = LABELS[message.mediaType];
  if (!label) return body === '' ? null : body;
  return body === '' ? label : `${label} ${body}`;
}

const time = (m: HistoryMessage): number => new Date(m.createdAt).getTime();

/** Oldest first; messages of the same instant in id order (ids grow with arrival). */
const chronological = (a: HistoryMessage, b: HistoryMessage): number =>
  time(a) - time(b) || a.id - b.id;

export function buildHistory(input: HistoryInput): ChatTurn[] {
  const keep = Math.max(1, Math.floor(input.maxMessages));
  const earlier = input.messages
    .filter((m) => m.id !== input.current.id && chronological(m, input.current) < 0)
    .filter((m) => messageText(m) !== null)
    .sort(chronological);
  const window = keep > 1 ? earlier.slice(-(keep - 1)) : [];
  const turns: ChatTurn[] = [{ role: 'system', content: input.systemPrompt }];
  for (const m of [...window, input.current]) {
    const content = messageText(m) ?? '';
    turns.push({ role: m.fromMe ? 'assistant' : 'user', content });
  }
  return turns;
}
