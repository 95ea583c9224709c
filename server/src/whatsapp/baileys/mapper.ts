// Baileys events → port events. Pure functions of their input, so each Baileys shape has a
// fixture test. Edits, revokes and reactions are taken from Baileys' processed events
// (messages.update, messages.reaction), which it emits for every upsert, live or offline.
import {
  WAMessageStatus,
  WAMessageStubType,
  isJidBroadcast,
  isJidGroup,
  isJidNewsletter,
  isLidUser,
  isPnUser,
  jidDecode,
  jidNormalizedUser,
  normalizeMessageContent,
  toNumber,
} from 'baileys';
import type {
  BaileysEventMap,
  Contact,
  LIDMapping,
  MessageUserReceiptUpdate,
  WAMessage,
  WAMessageKey,
  WAMessageUpdate,
  proto,
} from 'baileys';
import type {
  Ack,
  Identities,
  MediaRef,
  MessageRef,
  MessageType,
  PortEvent,
  PortMessage,
} from '../port.js';

export interface MapContext {
  connectionId: string;
}

/** Phone digits and/or LID user part from any mix of PN and LID JIDs. */
export function identitiesOf(...jids: (string | null | undefined)[]): Identities {
  const ids: Identities = {};
  for (const jid of jids) {
    if (!jid) continue;
    const user = jidDecode(jid)?.user;
    if (!user) continue;
    if (isLidUser(jid)) ids.lid ??= user;
    else if (isPnUser(jid) || jid.endsWith('@c.us')) ids.phone ??= user;
  }
  return ids;
}

/** Chats we never turn into tickets: statuses, broadcast lists, channels. */
export function isIgnoredChat(jid: string | null | undefined): boolean {
  return !jid || isJidBroadcast(jid) || isJidNewsletter(jid) === true;
}

const chatIdOf = (jid: string) => (isJidGroup(jid) ? jid : jidNormalizedUser(jid));

export function refOf(key: WAMessageKey | proto.IMessageKey): MessageRef {
  const ref: MessageRef = {
    chatId: chatIdOf(key.remoteJid ?? ''),
    id: key.id ?? '',
    fromMe: key.fromMe === true,
  };
  if (key.participant) ref.participant = key.participant;
  return ref;
}

const secondsToMs = (t: number | Long | null | undefined) => toNumber(t) * 1000;
type Long = Parameters<typeof toNumber>[0];

/** What `downloadMedia` needs to fetch and decrypt a media file later, as text. */
export interface MediaLocator {
  type: 'image' | 'video' | 'audio' | 'document' | 'sticker';
  mediaKey: string;
  directPath?: string;
  url?: string;
}

export const encodeMediaLocator = (locator: MediaLocator) => JSON.stringify(locator);
export const decodeMediaLocator = (text: string) => JSON.parse(text) as MediaLocator;

type MediaContent =
  | proto.Message.IImageMessage
  | proto.Message.IVideoMessage
  | proto.Message.IAudioMessage
  | proto.Message.IDocumentMessage
  | proto.Message.IStickerMessage;

function mediaRef(kind: MediaRef['kind'], media: MediaContent): MediaRef {
  const locator: MediaLocator = {
    type: kind,
    mediaKey: media.mediaKey ? Buffer.from(media.mediaKey).toString('base64') : '',
  };
  if (media.directPath) locator.directPath = media.directPath;
  if (media.url) locator.url = media.url;
  const ref: MediaRef = {
    kind,
    mimetype: media.mimetype ?? 'application/octet-stream',
    locator: encodeMediaLocator(locator),
  };
  if ('fileName' in media && media.fileName) ref.fileName = media.fileName;
  if (media.fileLength != null) ref.fileLength = toNumber(media.fileLength);
  if ('seconds' in media && media.seconds) ref.seconds = media.seconds;
  if ('ptt' in media && media.ptt) ref.voiceNote = true;
  return ref;
}

interface Content {
  type: MessageType;
  body: string;
  media?: MediaRef;
  location?: PortMessage['location'];
  vcards?: string[];
  contextInfo?: proto.IContextInfo | null;
}

/** The user-visible content of a message, or undefined for what is not a chat message. */
export function contentOf(message: proto.IMessage | null | undefined): Content | undefined {
  const m = normalizeMessageContent(message);
  if (!m) return undefined;
  if (m.conversation) return { type: 'chat', body: m.conversation };
  if (m.extendedTextMessage) {
    const t = m.extendedTextMessage;
    return { type: 'chat', body: t.text ?? '', contextInfo: t.contextInfo };
  }
  const media = (
    kind: MediaRef['kind'],
    c: MediaContent & { contextInfo?: proto.IContextInfo | null },
  ) => {
    const caption = 'caption' in c && c.caption ? c.caption : undefined;
    const fileName = 'fileName' in c && c.fileName ? c.fileName : '';
    const body = caption ?? (kind === 'document' ? fileName : '');
    return { type: kind, body, media: mediaRef(kind, c), contextInfo: c.contextInfo } as Content;
  };
  if (m.imageMessage) return media('image', m.imageMessage);
  if (m.videoMessage) return media('video', m.videoMessage);
  if (m.audioMessage) return media('audio', m.audioMessage);
  if (m.documentMessage) return media('document', m.documentMessage);
  if (m.stickerMessage) return media('sticker', m.stickerMessage);
  const loc = m.locationMessage ?? m.liveLocationMessage;
  if (loc) {
    const location: NonNullable<Content['location']> = {
      latitude: loc.degreesLatitude ?? 0,
      longitude: loc.degreesLongitude ?? 0,
    };
    const named = m.locationMessage;
    if (named?.name) location.name = named.name;
    if (named?.address) location.address = named.address;
    const body = location.name ?? `${location.latitude},${location.longitude}`;
    return { type: 'locationMessage', body, location, contextInfo: loc.contextInfo };
  }
  if (m.contactMessage) {
    const c = m.contactMessage;
    return {
      type: 'contactMessage',
      body: c.displayName ?? '',
      vcards: c.vcard ? [c.vcard] : [],
      contextInfo: c.contextInfo,
    };
  }
  if (m.contactsArrayMessage) {
    const a = m.contactsArrayMessage;
    const vcards = (a.contacts ?? []).map((c) => c.vcard ?? '').filter(Boolean);
    return { type: 'vcard', body: a.displayName ?? '', vcards, contextInfo: a.contextInfo };
  }
  if (m.call) return { type: 'call_log', body: 'call' };
  // Choices made on buttons and lists read as the text the customer picked.
  const picked =
    m.buttonsResponseMessage?.selectedDisplayText ??
    m.templateButtonReplyMessage?.selectedDisplayText ??
    m.listResponseMessage?.title;
  if (picked) return { type: 'chat', body: picked };
  return undefined;
}

const MISSED_CALLS: Partial<Record<number, string>> = {
  [WAMessageStubType.CALL_MISSED_VOICE]: 'missed-voice-call',
  [WAMessageStubType.CALL_MISSED_VIDEO]: 'missed-video-call',
  [WAMessageStubType.CALL_MISSED_GROUP_VOICE]: 'missed-voice-call',
  [WAMessageStubType.CALL_MISSED_GROUP_VIDEO]: 'missed-video-call',
};

/** One Baileys message → a port `message`, or nothing (statuses, protocol, reactions...). */
export function mapWebMessage(
  ctx: MapContext,
  msg: WAMessage,
  offline: boolean,
): PortMessage | undefined {
  const key = msg.key;
  const remoteJid = key.remoteJid;
  if (!key.id || !remoteJid || isIgnoredChat(remoteJid)) return undefined;

  let content: Content | undefined;
  const stub = msg.messageStubType ?? undefined;
  if (stub === WAMessageStubType.CIPHERTEXT) {
    // Not decrypted (yet): a placeholder the pipeline upgrades when the content comes.
    content = { type: 'ciphertext', body: '' };
  } else if (stub !== undefined && MISSED_CALLS[stub]) {
    content = { type: 'call_log', body: MISSED_CALLS[stub] };
  } else {
    content = contentOf(msg.message);
  }
  if (!content) return undefined;

  const isGroup = isJidGroup(remoteJid) === true;
  const participantJid = key.participant ?? msg.participant ?? undefined;
  const participant = isGroup ? identitiesOf(participantJid, key.participantAlt) : undefined;
  const out: PortMessage = {
    connectionId: ctx.connectionId,
    id: key.id,
    fromMe: key.fromMe === true,
    chatId: chatIdOf(remoteJid),
    contact: participant ?? identitiesOf(remoteJid, key.remoteJidAlt),
    type: content.type,
    body: content.body,
    timestamp: secondsToMs(msg.messageTimestamp),
    isGroup,
    offline,
  };
  if (msg.pushName) out.pushName = msg.pushName;
  if (content.media) out.media = content.media;
  if (content.location) out.location = content.location;
  if (content.vcards) out.vcards = content.vcards;
  if (content.contextInfo?.stanzaId) out.quotedId = content.contextInfo.stanzaId;
  if (isGroup) {
    out.group = { id: remoteJid };
    if (participant) out.participant = participant;
  }
  return out;
}

/** `messages.upsert`: `notify` (live) and `append` (queued while offline) both count. */
export function mapUpsert(
  ctx: MapContext,
  upsert: BaileysEventMap['messages.upsert'],
): PortEvent[] {
  const offline = upsert.type === 'append';
  const events: PortEvent[] = [];
  for (const msg of upsert.messages) {
    const payload = mapWebMessage(ctx, msg, offline);
    if (payload) events.push({ name: 'message', payload });
  }
  return events;
}

const editedBody = (message: proto.IMessage | null | undefined) =>
  contentOf(message?.editedMessage?.message ?? message)?.body;

/** `messages.update`: acks, edits and revokes. */
export function mapMessageUpdates(ctx: MapContext, updates: WAMessageUpdate[]): PortEvent[] {
  const events: PortEvent[] = [];
  const { connectionId } = ctx;
  for (const { key, update } of updates) {
    if (!key.id || isIgnoredChat(key.remoteJid)) continue;
    const ref = refOf(key);
    if (update.messageStubType === WAMessageStubType.REVOKE || update.message === null) {
      events.push({ name: 'revoke', payload: { connectionId, ref } });
      continue;
    }
    if (update.message?.editedMessage) {
      const body = editedBody(update.message);
      if (body !== undefined) {
        const timestamp = update.messageTimestamp
          ? secondsToMs(update.messageTimestamp)
          : Date.now();
        events.push({ name: 'edit', payload: { connectionId, ref, body, timestamp } });
      }
    }
    if (update.status != null) {
      const failed = update.status === WAMessageStatus.ERROR;
      const ack = Math.min(5, Math.max(0, update.status)) as Ack;
      events.push({ name: 'ack', payload: { connectionId, ref, ack, ...(failed && { failed }) } });
    }
  }
  return events;
}

/** `messages.reaction`: the target message, who reacted, and the emoji ('' = removed). */
export function mapReactions(
  ctx: MapContext,
  reactions: BaileysEventMap['messages.reaction'],
): PortEvent[] {
  const events: PortEvent[] = [];
  for (const { key, reaction } of reactions) {
    if (!key.id || isIgnoredChat(key.remoteJid)) continue;
    const by = (reaction.key ?? {}) as WAMessageKey;
    const fromMe = by.fromMe === true;
    const from = isJidGroup(by.remoteJid ?? undefined)
      ? identitiesOf(by.participant, by.participantAlt)
      : identitiesOf(by.remoteJid, by.remoteJidAlt);
    events.push({
      name: 'reaction',
      payload: {
        connectionId: ctx.connectionId,
        target: refOf(key),
        emoji: reaction.text ?? '',
        from,
        fromMe,
        timestamp: toNumber(reaction.senderTimestampMs) || Date.now(),
      },
    });
  }
  return events;
}

/** `message-receipt.update`: per-recipient receipts (groups) as acks. */
export function mapReceipts(ctx: MapContext, receipts: MessageUserReceiptUpdate[]): PortEvent[] {
  const events: PortEvent[] = [];
  for (const { key, receipt } of receipts) {
    if (!key.id || isIgnoredChat(key.remoteJid)) continue;
    const ack: Ack | undefined = receipt.playedTimestamp
      ? 5
      : receipt.readTimestamp
        ? 4
        : receipt.receiptTimestamp
          ? 3
          : undefined;
    if (ack === undefined) continue;
    events.push({
      name: 'ack',
      payload: {
        connectionId: ctx.connectionId,
        ref: refOf(key),
        ack,
        by: identitiesOf(receipt.userJid),
      },
    });
  }
  return events;
}

/** `lid-mapping.update`: a LID now known to be a phone number. */
export function mapLidMapping(ctx: MapContext, mapping: LIDMapping): PortEvent[] {
  const identities = identitiesOf(mapping.pn, mapping.lid);
  if (!identities.phone || !identities.lid) return [];
  return [
    { name: 'contacts', payload: { connectionId: ctx.connectionId, contacts: [{ identities }] } },
  ];
}

/** `contacts.upsert` / `contacts.update`: names and identities of people (groups skipped). */
export function mapContacts(ctx: MapContext, contacts: Partial<Contact>[]): PortEvent[] {
  const list = [];
  for (const c of contacts) {
    if (!c.id || isJidGroup(c.id) || isIgnoredChat(c.id)) continue;
    const identities = identitiesOf(c.id, c.lid, c.phoneNumber);
    if (!identities.phone && !identities.lid) continue;
    list.push({
      identities,
      ...(c.name && { name: c.name }),
      ...(c.notify && { pushName: c.notify }),
    });
  }
  return list.length
    ? [{ name: 'contacts', payload: { connectionId: ctx.connectionId, contacts: list } }]
    : [];
}
