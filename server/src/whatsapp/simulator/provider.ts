// A linked device on the simulated network: behaves towards the platform as the Baileys provider
// does (QR, 515 after the scan, reconnect policy, echoes, acks), with state in Redis.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { PortEventEmitter } from '../port.js';
import type {
  Ack,
  ChatTarget,
  ConnectionEvent,
  ConnectionStatus,
  ContactCard,
  Identities,
  Location,
  MediaRef,
  MessageRef,
  MessageType,
  NumberCheck,
  OutboundMedia,
  PortMessage,
  Presence,
  SendOptions,
  SentMessage,
  StartOptions,
  WhatsAppProvider,
} from '../port.js';
import {
  DEFAULT_RECONNECT_POLICY,
  qrCycleDecision,
  reconnectDecision,
} from '../baileys/reconnect.js';
import type { ReconnectPolicy } from '../baileys/reconnect.js';
import { chatIdOf, newMessageId, sha256 } from './network.js';
import type { SimDelivery, SimFaults, SimInbound, SimNetwork, SimOutbound } from './network.js';

export interface SimulatorProviderOptions {
  connectionId: string;
  network: SimNetwork;
  /** Subscribes to wake-ups for this connection; returns the unsubscribe function. */
  onWake: (connectionId: string, wake: () => void) => () => void;
  checkOwnership?: () => Promise<boolean>;
  reconnectPolicy?: ReconnectPolicy;
  maxQrCycles?: number;
  /** A new QR code every this many ms until scanned (WhatsApp: about 20 s). */
  qrIntervalMs?: number;
  /** Safety poll of the queues, should a wake-up be missed. */
  pollMs?: number;
  /** How long a lone message waits for a partner under the outOfOrder fault. */
  reorderWindowMs?: number;
  onError?: (err: unknown) => void;
}

const notConnected = () =>
  Object.assign(new Error('WhatsApp session is not connected'), {
    code: 'ERR_WAPP_NOT_INITIALIZED',
  });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function kindOf(mimetype: string): Exclude<MessageType, 'chat'> & MediaRef['kind'] {
  if (mimetype === 'image/webp') return 'sticker';
  if (mimetype.startsWith('image/')) return 'image';
  if (mimetype.startsWith('audio/')) return 'audio';
  if (mimetype.startsWith('video/')) return 'video';
  return 'document';
}

/** Who a chat address is: a phone (s.whatsapp.net) or a LID. */
function identitiesOfChat(chatId: string): Identities {
  const [user = '', server] = chatId.split('@');
  if (server === 'lid') return { lid: user };
  if (server === 'g.us') return {};
  return { phone: user };
}

export class SimulatorProvider implements WhatsAppProvider {
  readonly connectionId: string;
  readonly events: PortEventEmitter;
  private current: ConnectionStatus = 'DISCONNECTED';
  private running = false;
  private attempt = 0;
  private qrShown = 0;
  private replacedAt: number[] = [];
  private connectedAt = 0;
  private everConnected = false;
  private pairingPhone: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  private poll: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  private pumping: Promise<void> | undefined;
  private pumpAgain = false;
  private held: { message: SimInbound; timer: NodeJS.Timeout } | undefined;
  private me: Identities = {};

  constructor(private readonly options: SimulatorProviderOptions) {
    this.connectionId = options.connectionId;
    this.events = new PortEventEmitter(options.onError);
  }

  private get network() {
    return this.options.network;
  }

  status(): ConnectionStatus {
    return this.current;
  }

  async start(options: StartOptions = {}): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.attempt = 0;
    this.qrShown = 0;
    this.pairingPhone = options.pairingPhone;
    this.unsubscribe = this.options.onWake(this.connectionId, () => this.pump());
    this.poll = setInterval(() => this.pump(), this.options.pollMs ?? 2_000);
    this.setStatus({ status: 'OPENING' });
    await this.connect();
  }

  async stop(): Promise<void> {
    this.halt();
    this.setStatus({ status: 'DISCONNECTED' });
  }

  async logout(): Promise<void> {
    this.halt();
    await this.network.unlink(this.connectionId);
    this.setStatus({ status: 'DISCONNECTED' });
  }

  private halt() {
    this.running = false;
    clearTimeout(this.timer);
    clearInterval(this.poll);
    if (this.held) clearTimeout(this.held.timer);
    this.held = undefined;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  private async connect(): Promise<void> {
    if (!this.running) return;
    const number = await this.network.linkedNumber(this.connectionId);
    if (number !== undefined) return this.open(number);
    if (this.pairingPhone) {
      const pairingCode = randomBytes(4).toString('hex').toUpperCase();
      this.setStatus({ status: 'PAIRING', pairingCode });
      return;
    }
    this.showQr();
  }

  private showQr() {
    if (!this.running) return;
    this.qrShown++;
    const decision = qrCycleDecision(this.qrShown, this.options.maxQrCycles);
    if (decision.action === 'give-up') {
      this.halt();
      this.setStatus({ status: decision.status, retries: this.qrShown - 1 });
      return;
    }
    const qr = `2@sim-${this.connectionId}-${this.qrShown}-${randomBytes(12).toString('base64url')}`;
    this.setStatus({ status: 'qrcode', qr, retries: this.qrShown });
    this.later(this.options.qrIntervalMs ?? 30_000, async () => this.showQr());
  }

  private async open(number: string) {
    const reconnected = this.everConnected;
    this.attempt = 0;
    this.qrShown = 0;
    this.everConnected = true;
    this.connectedAt = Date.now();
    this.me = { phone: number };
    this.setStatus({ status: 'CONNECTED', me: this.me });
    const faults = await this.network.faults(this.connectionId);
    if (reconnected && faults.replayOnReconnect) {
      for (const message of await this.network.unreadDelivered(this.connectionId)) {
        await this.deliver(message, faults, true);
      }
    }
    this.pump();
  }

  /** A close of the current connection, decided by the same policy as the Baileys adapter. */
  private onClose(code: number) {
    if (!this.running) return;
    clearTimeout(this.timer);
    const now = Date.now();
    this.replacedAt = this.replacedAt.filter((t) => now - t < 10 * 60_000);
    const recent = code === 440 ? this.replacedAt.length : 0;
    if (code === 440) this.replacedAt.push(now);
    const policy = this.options.reconnectPolicy ?? DEFAULT_RECONNECT_POLICY;
    const decision = reconnectDecision(code, this.attempt, recent, policy);
    this.setStatus({ status: decision.status, reason: code });
    switch (decision.action) {
      case 'restart':
        return this.later(0, () => this.connect());
      case 'backoff':
        this.attempt++;
        return this.later(decision.delayMs, () => this.connect());
      case 'check-ownership':
        return this.later(decision.delayMs, async () => {
          const owned = await (this.options.checkOwnership?.() ?? Promise.resolve(true));
          if (owned) return this.connect();
          this.halt();
          this.setStatus({ status: 'DISCONNECTED', reason: 440 });
        });
      case 'stop':
        return this.halt();
      case 'stop-and-wipe':
        this.halt();
        void this.network.unlink(this.connectionId).catch((err) => this.options.onError?.(err));
        return;
    }
  }

  private later(delayMs: number, run: () => Promise<void>) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      run().catch((err: unknown) => this.options.onError?.(err));
    }, delayMs);
  }

  private setStatus(event: Omit<ConnectionEvent, 'connectionId'>) {
    this.current = event.status;
    this.events.emit('connection', { connectionId: this.connectionId, ...event });
  }

  /** Drains the control queue, and the inbox while connected; one drain at a time. */
  private pump(): void {
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = this.drain()
      .catch((err: unknown) => this.options.onError?.(err))
      .finally(() => {
        this.pumping = undefined;
        if (this.pumpAgain && this.running) {
          this.pumpAgain = false;
          this.pump();
        }
      });
  }

  private async drain(): Promise<void> {
    if (!this.running) return;
    for (const control of await this.network.takeControl(this.connectionId)) {
      if (control.kind === 'scan' && (this.current === 'qrcode' || this.current === 'PAIRING')) {
        await this.network.link(this.connectionId, control.number);
        // As WhatsApp does after pairing: close with "restart required".
        this.onClose(515);
      } else if (control.kind === 'drop' && this.current !== 'DISCONNECTED') {
        this.onClose(control.code);
      }
    }
    if (this.current !== 'CONNECTED') return;
    const deliveries = await this.network.takeInbox(this.connectionId);
    const faults = await this.network.faults(this.connectionId);
    const messages: SimInbound[] = [];
    for (const delivery of deliveries) {
      if (delivery.kind === 'message') messages.push(delivery.message);
      else this.emitAck(delivery);
    }
    await this.deliverAll(messages, faults);
  }

  private async deliverAll(messages: SimInbound[], faults: SimFaults) {
    if (!faults.outOfOrder) {
      for (const message of messages) await this.deliver(message, faults, false);
      return;
    }
    if (this.held) {
      clearTimeout(this.held.timer);
      messages.unshift(this.held.message);
      this.held = undefined;
    }
    if (messages.length === 1) {
      const [message] = messages as [SimInbound];
      const timer = setTimeout(() => {
        this.held = undefined;
        void this.deliver(message, faults, false).catch((err) => this.options.onError?.(err));
      }, this.options.reorderWindowMs ?? 300);
      this.held = { message, timer };
      return;
    }
    for (let i = 0; i < messages.length; i += 2) {
      const pair = messages.slice(i, i + 2).reverse();
      for (const message of pair) await this.deliver(message, faults, false);
    }
  }

  private emitAck(delivery: Extract<SimDelivery, { kind: 'ack' }>) {
    this.events.emit('ack', {
      connectionId: this.connectionId,
      ref: { chatId: delivery.chatId, id: delivery.id, fromMe: true },
      ack: delivery.ack,
    });
  }

  private async deliver(inbound: SimInbound, faults: SimFaults, replay: boolean) {
    const message = this.toPortMessage(inbound, replay || inbound.at < this.connectedAt);
    if (faults.ciphertextFirst) {
      const { media: _media, quotedId: _quoted, ...stub } = message;
      this.events.emit('message', { ...stub, type: 'ciphertext', body: '' });
      await sleep(20);
    }
    this.events.emit('message', message);
    if (faults.duplicate) this.events.emit('message', { ...message });
  }

  private toPortMessage(inbound: SimInbound, offline: boolean): PortMessage {
    const person: Identities = { phone: inbound.from.replace(/\D/g, '') };
    if (inbound.lid) person.lid = inbound.lid;
    const personChat = inbound.lid ? `${inbound.lid}@lid` : chatIdOf(person.phone!);
    const groupChat = inbound.group ? `${inbound.group.id.replace(/@.*$/, '')}@g.us` : undefined;
    const message: PortMessage = {
      connectionId: this.connectionId,
      id: inbound.id,
      fromMe: false,
      chatId: groupChat ?? personChat,
      contact: person,
      type: inbound.media ? kindOf(inbound.media.mimetype) : 'chat',
      body: inbound.body,
      timestamp: inbound.at,
      isGroup: Boolean(groupChat),
      offline,
    };
    if (inbound.name) message.pushName = inbound.name;
    if (inbound.quotedId) message.quotedId = inbound.quotedId;
    if (inbound.media) {
      const { mimetype, fileName, size, locator } = inbound.media;
      message.media = { kind: kindOf(mimetype), mimetype, fileLength: size, locator };
      if (fileName) message.media.fileName = fileName;
      if (message.media.kind === 'audio' && mimetype.includes('ogg')) {
        message.media.voiceNote = true;
      }
    }
    if (groupChat) {
      message.group = { id: groupChat };
      if (inbound.group?.subject) message.group.subject = inbound.group.subject;
      message.participant = person;
    }
    return message;
  }

  // ---- actions ----

  private live() {
    if (!this.running || this.current !== 'CONNECTED') throw notConnected();
  }

  private async send(
    to: ChatTarget,
    record: Pick<SimOutbound, 'kind'> & Partial<SimOutbound>,
    echo: Pick<PortMessage, 'type' | 'body'> & Partial<PortMessage>,
    options: SendOptions = {},
  ): Promise<SentMessage> {
    this.live();
    const id = options.messageId ?? newMessageId();
    const chatId = chatIdOf(to);
    const at = Date.now();
    const quotedId = options.quoted?.id;
    await this.network.record(this.connectionId, {
      ...record,
      id,
      to,
      chatId,
      ack: 1,
      at,
      ...(quotedId && { quotedId }),
    });
    const message: PortMessage = {
      connectionId: this.connectionId,
      id,
      fromMe: true,
      chatId,
      contact: identitiesOfChat(chatId),
      timestamp: at,
      isGroup: chatId.endsWith('@g.us'),
      // Baileys echoes our own sends as an `append` upsert.
      offline: true,
      ...echo,
      ...(quotedId && { quotedId }),
    };
    const ref: MessageRef = { chatId, id, fromMe: true };
    // As on WhatsApp: the echo and the server ack arrive after the send call returned.
    setImmediate(() => {
      this.events.emit('message', message);
      this.events.emit('ack', { connectionId: this.connectionId, ref, ack: 2 as Ack });
    });
    return { ref, timestamp: at, providerPayload: JSON.stringify(record) };
  }

  sendText(to: ChatTarget, text: string, options?: SendOptions) {
    return this.send(to, { kind: 'text', body: text }, { type: 'chat', body: text }, options);
  }

  async sendMedia(to: ChatTarget, media: OutboundMedia, options?: SendOptions) {
    const bytes = media.data instanceof Uint8Array ? media.data : await readFile(media.data.path);
    const kind = media.kind;
    const described = {
      kind,
      mimetype: media.mimetype,
      size: bytes.byteLength,
      sha256: sha256(bytes),
      ...(media.fileName && { fileName: media.fileName }),
      ...(media.caption && { caption: media.caption }),
      ...(media.voiceNote && { voiceNote: true }),
    };
    const ref: MediaRef = {
      kind,
      mimetype: media.mimetype,
      fileLength: bytes.byteLength,
      locator: '',
    };
    if (media.fileName) ref.fileName = media.fileName;
    const body = media.caption ?? '';
    return this.send(
      to,
      { kind: 'media', media: described },
      { type: kind, body, media: ref },
      options,
    );
  }

  sendLocation(to: ChatTarget, location: Location, options?: SendOptions) {
    const body = location.name ?? `${location.latitude},${location.longitude}`;
    return this.send(
      to,
      { kind: 'location', location },
      { type: 'locationMessage', body, location },
      options,
    );
  }

  sendContacts(to: ChatTarget, cards: ContactCard[], options?: SendOptions) {
    const vcards = cards.map(
      (c) => `BEGIN:VCARD\nVERSION:3.0\nFN:${c.name}\nTEL;waid=${c.phone}:+${c.phone}\nEND:VCARD`,
    );
    const type = cards.length > 1 ? 'vcard' : 'contactMessage';
    const body = cards.map((c) => c.name).join(', ');
    return this.send(to, { kind: 'contacts', cards }, { type, body, vcards }, options);
  }

  async editText(target: MessageRef, text: string): Promise<void> {
    this.live();
    await this.network.record(this.connectionId, {
      id: newMessageId(),
      kind: 'edit',
      to: target.chatId,
      chatId: target.chatId,
      body: text,
      targetId: target.id,
      ack: 1,
      at: Date.now(),
    });
    const event = {
      connectionId: this.connectionId,
      ref: target,
      body: text,
      timestamp: Date.now(),
    };
    setImmediate(() => this.events.emit('edit', event));
  }

  async deleteMessage(target: MessageRef): Promise<void> {
    this.live();
    await this.network.record(this.connectionId, {
      id: newMessageId(),
      kind: 'delete',
      to: target.chatId,
      chatId: target.chatId,
      targetId: target.id,
      ack: 1,
      at: Date.now(),
    });
    setImmediate(() =>
      this.events.emit('revoke', { connectionId: this.connectionId, ref: target }),
    );
  }

  async react(target: MessageRef, emoji: string): Promise<void> {
    this.live();
    await this.network.record(this.connectionId, {
      id: newMessageId(),
      kind: 'react',
      to: target.chatId,
      chatId: target.chatId,
      targetId: target.id,
      emoji,
      ack: 1,
      at: Date.now(),
    });
    const event = {
      connectionId: this.connectionId,
      target,
      emoji,
      from: this.me,
      fromMe: true,
      timestamp: Date.now(),
    };
    setImmediate(() => this.events.emit('reaction', event));
  }

  async markRead(refs: MessageRef[]): Promise<void> {
    this.live();
    await this.network.markRead(
      this.connectionId,
      refs.filter((r) => !r.fromMe).map((r) => r.id),
    );
  }

  async setPresence(to: ChatTarget, presence: Presence): Promise<void> {
    this.live();
    await this.network.setPresence(this.connectionId, chatIdOf(to), presence);
  }

  /** On the simulated network every number of 10 to 15 digits has WhatsApp. */
  async checkNumber(phone: string): Promise<NumberCheck> {
    this.live();
    const digits = phone.replace(/\D/g, '');
    if (digits.length < 10 || digits.length > 15) return { exists: false };
    return { exists: true, chatId: chatIdOf(digits), identities: { phone: digits } };
  }

  /** Simulated contacts keep their picture private, as many real ones do. */
  async profilePicture(_to: ChatTarget): Promise<string | undefined> {
    this.live();
    return undefined;
  }

  async downloadMedia(media: MediaRef): Promise<Uint8Array> {
    const bytes = await this.network.media(this.connectionId, media.locator);
    if (!bytes)
      throw Object.assign(new Error('media expired'), { code: 'ERR_WAPP_DOWNLOAD_MEDIA' });
    return bytes;
  }
}
