import type { Message } from '../../api/types';

/** Older messages load when the thread is scrolled within 50 px of its top (core §9). */
export const OLDER_PAGE_THRESHOLD_PX = 50;

export type ThreadRow =
  | { kind: 'day'; key: string; date: string }
  | { kind: 'ticket-ended'; key: string; date: string }
  | { kind: 'ticket-started'; key: string; date: string }
  | { kind: 'message'; key: string; message: Message };

const dayKey = (iso: string) => {
  const d = new Date(iso);
  return `${d.getFullYear()}-${d.getMonth()}-${d.getDate()}`;
};

/**
 * The rows of a thread in time order: a separator whenever the day changes, and
 * 'conversation ended' / 'started' markers when consecutive messages belong to different
 * tickets of the contact.
 */
export function threadRows(messages: readonly Message[]): ThreadRow[] {
  const rows: ThreadRow[] = [];
  let previous: Message | undefined;
  for (const message of messages) {
    if (previous && previous.ticketId !== message.ticketId) {
      rows.push({ kind: 'ticket-ended', key: `end-${previous.id}`, date: previous.createdAt });
      rows.push({ kind: 'ticket-started', key: `start-${message.id}`, date: message.createdAt });
    }
    if (!previous || dayKey(previous.createdAt) !== dayKey(message.createdAt)) {
      rows.push({ kind: 'day', key: `day-${message.id}`, date: message.createdAt });
    }
    rows.push({ kind: 'message', key: `m-${message.id}`, message });
    previous = message;
  }
  return rows;
}

/** Merges a page or a live message into the thread: by id, in time order. */
export function mergeMessages(
  current: readonly Message[],
  incoming: readonly Message[],
): Message[] {
  const byId = new Map(current.map((m) => [String(m.id), m]));
  for (const message of incoming) byId.set(String(message.id), message);
  return [...byId.values()].sort(
    (a, b) =>
      Date.parse(a.createdAt) - Date.parse(b.createdAt) || String(a.id).localeCompare(String(b.id)),
  );
}

/** The 'signed message' option prefixes the user's name in bold (WhatsApp *bold*). */
export const signBody = (body: string, userName: string, signed: boolean): string =>
  signed ? `*${userName}:*\n${body}` : body;

/** Empty or whitespace-only messages are not sent (core §5). */
export const isSendable = (body: string): boolean => body.trim().length > 0;

/** Ack display (core §3): 0 pending, 1-2 sent, 3 delivered, 4-5 read. */
export function ackState(ack: number): 'pending' | 'sent' | 'delivered' | 'read' {
  if (ack <= 0) return 'pending';
  if (ack <= 2) return 'sent';
  if (ack === 3) return 'delivered';
  return 'read';
}

const MEDIA_LINK = /^(?:https?:\/\/[^/]+)?(\/media\/[^/?#]+)(?:[?#].*)?$/;

/**
 * The server's own media path (`/media/<file>`) of a media link, absolute and signed or not
 * (issue 13 item 6): our client loads media by that path with its session (through the desktop
 * cache), so a signed link that expired still loads. Any other URL is returned as it is.
 */
export function mediaPathOf(url: string | null | undefined): string | null {
  if (!url) return null;
  return MEDIA_LINK.exec(url)?.[1] ?? url;
}

const FILE_NAME_BODY = /^[^\n/\\]{1,200}\.[A-Za-z0-9]{1,8}$/;

/**
 * The name a file bubble shows: the message's `fileName` when the server sends it, else a body
 * that is a file name (Whaticket stores documents so), else the last part of the media URL.
 */
export function fileNameOf(
  message: Pick<Message, 'body' | 'mediaUrl'> & Partial<Pick<Message, 'fileName'>>,
): string {
  if (message.fileName) return message.fileName;
  const body = message.body?.trim() ?? '';
  if (FILE_NAME_BODY.test(body) && body !== mediaPathOf(message.mediaUrl)) return body;
  const path = (message.mediaUrl ?? '').split(/[?#]/)[0] ?? '';
  const last = path.slice(path.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}
