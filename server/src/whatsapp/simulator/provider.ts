// The simulator as a WhatsApp provider: the actions of the port on a simulated device. Sends are
// recorded in order (under our ids when given), echoed fromMe and server-acked as on WhatsApp.
import { readFile } from 'node:fs/promises';
import type {
  Ack,
  ChatTarget,
  ContactCard,
  ContactInfo,
  Location,
  MediaRef,
  MessageRef,
  NumberCheck,
  OutboundMedia,
  PortMessage,
  Presence,
  SendOptions,
  SentMessage,
  WhatsAppProvider,
} from '../port.js';
import { SimulatedDevice } from './device.js';
import { identitiesOfChat } from './inbound.js';
import { chatIdOf, newMessageId, sha256 } from './network.js';
import type { SimOutbound } from './network.js';

export type { SimulatorProviderOptions } from './device.js';

const notConnected = () =>
  Object.assign(new Error('WhatsApp session is not connected'), {
    code: 'ERR_WAPP_NOT_INITIALIZED',
  });

export class SimulatorProvider extends SimulatedDevice implements WhatsAppProvider {
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

  async listContacts(): Promise<ContactInfo[]> {
    this.live();
    const book = await this.network.addressBook(this.connectionId);
    return book.map(({ phone, name }) => ({ identities: { phone }, ...(name && { name }) }));
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
