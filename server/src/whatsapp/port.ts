// The one interface the rest of the server uses to talk to WhatsApp. Providers (Baileys, the
// simulator) translate their own world into these types; nothing provider-specific leaks out.

/** Session status as the connections screen shows it (admin §2). */
export type ConnectionStatus =
  'OPENING' | 'qrcode' | 'PAIRING' | 'CONNECTED' | 'DISCONNECTED' | 'TIMEOUT';

/** Who someone is on WhatsApp: a phone number (digits only), a LID, or both once mapped. */
export interface Identities {
  phone?: string;
  lid?: string;
}

/**
 * What a message is. `document` is stored with mediaType 'application' (see `storedMediaType`);
 * `contactMessage` is one card, `vcard` several; `ciphertext` is a placeholder for a message
 * that failed to decrypt and will be upgraded in place when its content arrives under the same id.
 */
export type MessageType =
  | 'chat'
  | 'image'
  | 'audio'
  | 'video'
  | 'document'
  | 'sticker'
  | 'locationMessage'
  | 'contactMessage'
  | 'vcard'
  | 'call_log'
  | 'ciphertext'
  | 'reaction';

/** The mediaType column of core §2 (Message). */
export type StoredMediaType = Exclude<MessageType, 'document'> | 'application';

export function storedMediaType(type: MessageType): StoredMediaType {
  return type === 'document' ? 'application' : type;
}

/** Inbound media, not yet downloaded: enough to fetch it later from a job. */
export interface MediaRef {
  kind: 'image' | 'audio' | 'video' | 'document' | 'sticker';
  mimetype: string;
  fileName?: string;
  fileLength?: number;
  /** Duration in seconds (audio, video). */
  seconds?: number;
  /** Audio recorded as a voice note. */
  voiceNote?: boolean;
  /** Opaque provider data `downloadMedia` needs; store it as is. */
  locator: string;
}

export interface Location {
  latitude: number;
  longitude: number;
  name?: string;
  address?: string;
}

export interface GroupInfo {
  id: string;
  subject?: string;
}

/** A message received from, or sent to, a chat (fromMe tells which). */
export interface PortMessage {
  connectionId: string;
  id: string;
  fromMe: boolean;
  /** The chat's provider address (a contact's or a group's); use it as `to` when answering. */
  chatId: string;
  /** The other party of a one-to-one chat; in a group, the author (same as `participant`). */
  contact: Identities;
  pushName?: string;
  type: MessageType;
  body: string;
  media?: MediaRef;
  location?: Location;
  /** vCards of contact cards, one per card. */
  vcards?: string[];
  quotedId?: string;
  /** Milliseconds since the epoch. */
  timestamp: number;
  isGroup: boolean;
  group?: GroupInfo;
  participant?: Identities;
  /** Delivered from WhatsApp's offline queue (Baileys `append`): store it, do not drop it. */
  offline: boolean;
}

/** Which message an action targets. Dedupe by (connection, id, fromMe), never by chat id. */
export interface MessageRef {
  chatId: string;
  id: string;
  fromMe: boolean;
  /** Author in a group chat. */
  participant?: string;
}

/** 0 pending, 1-2 sent, 3 delivered, 4-5 read (core §3). */
export type Ack = 0 | 1 | 2 | 3 | 4 | 5;

export interface AckEvent {
  connectionId: string;
  ref: MessageRef;
  ack: Ack;
  /** WhatsApp refused the message (ack stays 0). */
  failed?: boolean;
  /** In groups, whose receipt this is. */
  by?: Identities;
}

export interface EditEvent {
  connectionId: string;
  ref: MessageRef;
  body: string;
  timestamp: number;
}

export interface RevokeEvent {
  connectionId: string;
  ref: MessageRef;
}

export interface ReactionEvent {
  connectionId: string;
  /** The message reacted to. */
  target: MessageRef;
  /** Empty when the reaction was removed. */
  emoji: string;
  from: Identities;
  fromMe: boolean;
  timestamp: number;
}

export interface ContactInfo {
  identities: Identities;
  name?: string;
  pushName?: string;
}

/** New contacts, or a LID learnt to belong to a phone (lid↔phone mapping). */
export interface ContactsEvent {
  connectionId: string;
  contacts: ContactInfo[];
}

export interface ConnectionEvent {
  connectionId: string;
  status: ConnectionStatus;
  qr?: string;
  pairingCode?: string;
  /** The disconnect reason code (Baileys' DisconnectReason numbers). */
  reason?: number;
  /** Number of QR codes shown so far in this cycle. */
  retries?: number;
  /** Our own number, once connected. */
  me?: Identities;
}

export interface PortEvents {
  connection: ConnectionEvent;
  message: PortMessage;
  ack: AckEvent;
  edit: EditEvent;
  revoke: RevokeEvent;
  reaction: ReactionEvent;
  contacts: ContactsEvent;
}

export type PortEventName = keyof PortEvents;

const PORT_EVENTS: Record<PortEventName, true> = {
  connection: true,
  message: true,
  ack: true,
  edit: true,
  revoke: true,
  reaction: true,
  contacts: true,
};
/** Every event a provider emits (the record above fails to compile when one is missing). */
export const PORT_EVENT_NAMES = Object.keys(PORT_EVENTS) as PortEventName[];
export type PortListener<K extends PortEventName> = (event: PortEvents[K]) => void;

/** One event as a tagged value, so mappers can return lists of them. */
export type PortEvent = {
  [K in PortEventName]: { name: K; payload: PortEvents[K] };
}[PortEventName];

export interface PortEmitter {
  /** Returns a function that removes the listener. */
  on<K extends PortEventName>(event: K, listener: PortListener<K>): () => void;
  off<K extends PortEventName>(event: K, listener: PortListener<K>): void;
}

/** A small typed emitter providers share. A listener that throws does not stop the others. */
export class PortEventEmitter implements PortEmitter {
  private readonly listeners = new Map<PortEventName, Set<(event: never) => void>>();

  constructor(private readonly onListenerError: (err: unknown) => void = () => {}) {}

  on<K extends PortEventName>(event: K, listener: PortListener<K>): () => void {
    let set = this.listeners.get(event);
    if (!set) {
      set = new Set();
      this.listeners.set(event, set);
    }
    set.add(listener);
    return () => this.off(event, listener);
  }

  off<K extends PortEventName>(event: K, listener: PortListener<K>): void {
    this.listeners.get(event)?.delete(listener);
  }

  emit<K extends PortEventName>(event: K, payload: PortEvents[K]): void {
    for (const listener of this.listeners.get(event) ?? []) {
      try {
        (listener as PortListener<K>)(payload);
      } catch (err) {
        this.onListenerError(err);
      }
    }
  }

  emitEvent(event: PortEvent): void {
    this.emit(event.name, event.payload as never);
  }

  listenerCount(event: PortEventName): number {
    return this.listeners.get(event)?.size ?? 0;
  }
}

export interface StartOptions {
  /** Link by pairing code for this phone number (digits) instead of a QR code. */
  pairingPhone?: string;
}

export interface SendOptions {
  /** Reply to this message. */
  quoted?: MessageRef;
  /** Our own id, for idempotent resends; providers that can set ids use it. */
  messageId?: string;
}

/** Outbound media: bytes in memory or a file on local disk. */
export interface OutboundMedia {
  kind: 'image' | 'video' | 'audio' | 'document';
  data: Uint8Array | { path: string };
  mimetype: string;
  fileName?: string;
  caption?: string;
  /** Audio only: send as a voice note (expects ogg/opus). */
  voiceNote?: boolean;
}

export interface ContactCard {
  name: string;
  /** Digits only. */
  phone: string;
}

export type Presence = 'available' | 'unavailable' | 'composing' | 'recording' | 'paused';

/** What a send returns: the id WhatsApp knows the message by, so its echo is not stored twice. */
export interface SentMessage {
  ref: MessageRef;
  timestamp: number;
  /**
   * Opaque provider copy of what was sent: store it with the message and hand it back through
   * the provider's message lookup, so WhatsApp's retry requests can be answered.
   */
  providerPayload?: string;
}

export interface NumberCheck {
  exists: boolean;
  /** The chat address to send to, when it exists. */
  chatId?: string;
  identities?: Identities;
}

/**
 * A chat address: a `chatId` as received in `PortMessage`, or a bare phone number in digits
 * (the provider turns it into its own address).
 */
export type ChatTarget = string;

export interface WhatsAppProvider {
  readonly connectionId: string;
  readonly events: PortEmitter;
  status(): ConnectionStatus;

  start(options?: StartOptions): Promise<void>;
  /** Close the session but keep the credentials (it resumes without a new QR). */
  stop(): Promise<void>;
  /** Unlink the device and wipe the credentials. */
  logout(): Promise<void>;

  sendText(to: ChatTarget, text: string, options?: SendOptions): Promise<SentMessage>;
  sendMedia(to: ChatTarget, media: OutboundMedia, options?: SendOptions): Promise<SentMessage>;
  sendLocation(to: ChatTarget, location: Location, options?: SendOptions): Promise<SentMessage>;
  sendContacts(to: ChatTarget, cards: ContactCard[], options?: SendOptions): Promise<SentMessage>;
  editText(target: MessageRef, text: string): Promise<void>;
  deleteMessage(target: MessageRef): Promise<void>;
  /** An empty emoji removes our reaction. */
  react(target: MessageRef, emoji: string): Promise<void>;
  markRead(refs: MessageRef[]): Promise<void>;
  setPresence(to: ChatTarget, presence: Presence): Promise<void>;
  checkNumber(phone: string): Promise<NumberCheck>;
  /** The phone's contacts with a phone number, as far as this session has learnt them. */
  listContacts(): Promise<ContactInfo[]>;
  /** URL of the chat's profile picture, or undefined when it has none or it is private. */
  profilePicture(to: ChatTarget): Promise<string | undefined>;
  downloadMedia(media: MediaRef): Promise<Uint8Array>;
}
