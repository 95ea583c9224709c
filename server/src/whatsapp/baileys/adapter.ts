// The Baileys provider: one live socket per connection at any time, rebuilt on reconnect with
// the old one's listeners removed and the socket ended, so two sockets never fight (440).
import {
  makeCacheableSignalKeyStore,
  makeWASocket,
  downloadContentFromMessage,
  proto,
  toBuffer,
} from 'baileys';
import type {
  BaileysEventMap,
  CacheStore,
  ConnectionState,
  UserFacingSocketConfig,
  WAMessage,
  WAMessageKey,
} from 'baileys';
import { PortEventEmitter } from '../port.js';
import type {
  ChatTarget,
  ConnectionEvent,
  ConnectionStatus,
  ContactCard,
  ContactInfo,
  Location,
  MessageRef,
  NumberCheck,
  OutboundMedia,
  PortEvent,
  Presence,
  SendOptions,
  SentMessage,
  StartOptions,
  WhatsAppProvider,
} from '../port.js';
import { loadAuthState } from './auth-state.js';
import type { AuthStore, StoredAuthState } from './auth-state.js';
import { contactsContent, locationContent, mediaContent, toJid } from './content.js';
import * as map from './mapper.js';
import { DEFAULT_RECONNECT_POLICY, qrCycleDecision, reconnectDecision } from './reconnect.js';
import type { ReconnectPolicy } from './reconnect.js';

export type BaileysSocket = ReturnType<typeof makeWASocket>;
type Logger = NonNullable<UserFacingSocketConfig['logger']>;

export interface BaileysProviderOptions {
  connectionId: string;
  authStore: AuthStore;
  logger: Logger;
  /** The `providerPayload` stored with a sent message, for WhatsApp's retry requests. */
  getMessage?: (ref: MessageRef) => Promise<string | undefined>;
  /** Asked before reconnecting after 440: do we still hold this session's lease? */
  checkOwnership?: () => Promise<boolean>;
  reconnectPolicy?: ReconnectPolicy;
  maxQrCycles?: number;
  /** A 440 again within this window counts as repeated (backs off). */
  replacedWindowMs?: number;
  /** Extra socket settings (tests point waWebSocketUrl at a dead port). */
  socketConfig?: Partial<UserFacingSocketConfig>;
  makeSocket?: (config: UserFacingSocketConfig) => BaileysSocket;
  /** Timer for reconnects; returns a cancel function. */
  schedule?: (run: () => void, delayMs: number) => () => void;
}

/** A Map-backed CacheStore that outlives sockets (Baileys' retry counters must survive them). */
export class MapCacheStore implements CacheStore {
  private readonly map = new Map<string, unknown>();
  get<T>(key: string): T | undefined {
    return this.map.get(key) as T | undefined;
  }
  set<T>(key: string, value: T): void {
    this.map.set(key, value);
    // Bounded so a long-lived session cannot grow it without limit.
    if (this.map.size > 10_000) this.map.delete(this.map.keys().next().value as string);
  }
  del(key: string): void {
    this.map.delete(key);
  }
  flushAll(): void {
    this.map.clear();
  }
}

/** Every socket event the provider listens to; all of them are removed on teardown. */
const SOCKET_EVENTS = [
  'connection.update',
  'creds.update',
] as const satisfies readonly (keyof BaileysEventMap)[];

const RECENT_SENT_LIMIT = 500;

const defaultSchedule = (run: () => void, delayMs: number) => {
  const timer = setTimeout(run, delayMs);
  return () => clearTimeout(timer);
};

const notConnected = () =>
  Object.assign(new Error('WhatsApp session is not connected'), {
    code: 'ERR_WAPP_NOT_INITIALIZED',
  });

export class BaileysProvider implements WhatsAppProvider {
  readonly connectionId: string;
  readonly events = new PortEventEmitter();
  private readonly retryCounters = new MapCacheStore();
  private readonly recentSent = new Map<string, proto.IMessage>();
  /** The phone's contacts, from `contacts.upsert`/`update` (Baileys 7 keeps no store). */
  private readonly phoneBook = new Map<string, ContactInfo>();
  private readonly ctx: map.MapContext;
  private sock: BaileysSocket | undefined;
  private auth: StoredAuthState | undefined;
  private current: ConnectionStatus = 'DISCONNECTED';
  private running = false;
  private attempt = 0;
  private qrShown = 0;
  private replacedAt: number[] = [];
  private pairingPhone: string | undefined;
  private cancelTimer: (() => void) | undefined;
  private credsWrite: Promise<void> = Promise.resolve();
  /** Puts back the socket's own `ev.emit` (see listen). */
  private restoreEmit: (() => void) | undefined;
  /** Sockets made and ended, so tests (and metrics) can see exactly one is alive. */
  readonly sockets = { created: 0, ended: 0 };

  constructor(private readonly options: BaileysProviderOptions) {
    this.connectionId = options.connectionId;
    this.ctx = { connectionId: options.connectionId };
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
    this.setStatus({ status: 'OPENING' });
    await this.connect();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.cancelTimer?.();
    await this.teardown();
    this.setStatus({ status: 'DISCONNECTED' });
  }

  async logout(): Promise<void> {
    this.running = false;
    this.cancelTimer?.();
    const sock = this.sock;
    // Unlink on the phone too when we can; a dead socket must not block wiping our copy.
    await sock?.logout().catch((err: unknown) => this.options.logger.warn({ err }, 'logout'));
    await this.teardown();
    await this.wipe();
    this.setStatus({ status: 'DISCONNECTED' });
  }

  private async connect(): Promise<void> {
    await this.teardown();
    if (!this.running) return;
    this.auth ??= await loadAuthState(this.options.authStore);
    const { logger } = this.options;
    const { state } = this.auth;
    const sock = (this.options.makeSocket ?? makeWASocket)({
      auth: { creds: state.creds, keys: makeCacheableSignalKeyStore(state.keys, logger) },
      logger,
      msgRetryCounterCache: this.retryCounters,
      markOnlineOnConnect: false,
      syncFullHistory: false,
      shouldSyncHistoryMessage: () => false,
      getMessage: (key) => this.lookupMessage(key),
      ...this.options.socketConfig,
    });
    this.sock = sock;
    this.sockets.created++;
    this.listen(sock);
  }

  /** Remove our listeners from the old socket, then end it; its close event is not ours. */
  private async teardown(): Promise<void> {
    const sock = this.sock;
    if (!sock) return;
    this.sock = undefined;
    this.restoreEmit?.();
    this.restoreEmit = undefined;
    for (const event of SOCKET_EVENTS) sock.ev.removeAllListeners(event);
    this.sockets.ended++;
    await sock.end(undefined);
  }

  private listen(sock: BaileysSocket): void {
    const ev = sock.ev;
    ev.on('connection.update', (update) => void this.onConnection(sock, update));
    ev.on('creds.update', (update) => this.saveCreds(update));
    // Customers' data is taken where Baileys raises it, not where its event buffer lets it out:
    // Baileys has already sent WhatsApp's receipt by then (messages-recv.js handleMessage sends
    // it before upsertMessage), and the buffer holds events of the offline queue for 100 ms or
    // more. Every socket layer calls `ev.emit` on this same object, so wrapping it sees each
    // raw event once, in the tick Baileys raises it (docs/decisions.md, issue 19).
    const raw = ev.emit;
    ev.emit = ((event: keyof BaileysEventMap, data: unknown) => {
      if (sock === this.sock) this.onData(event, data);
      return raw.call(ev, event as never, data as never);
    }) as typeof ev.emit;
    this.restoreEmit = () => {
      ev.emit = raw;
    };
  }

  /** Keeps the phone's contacts heard during the session (the import of the phone's contacts). */
  private learnContacts(events: PortEvent[]): void {
    for (const e of events)
      if (e.name === 'contacts')
        for (const c of e.payload.contacts)
          if (c.identities.phone) {
            const known = this.phoneBook.get(c.identities.phone);
            this.phoneBook.set(c.identities.phone, { ...known, ...c });
          }
  }

  /** Maps a raw socket event carrying customers' data to port events, synchronously. */
  private onData(event: keyof BaileysEventMap, data: unknown): void {
    let events: PortEvent[];
    switch (event) {
      case 'messages.upsert':
        events = map.mapUpsert(this.ctx, data as BaileysEventMap['messages.upsert']);
        break;
      case 'messages.update':
        events = map.mapMessageUpdates(this.ctx, data as BaileysEventMap['messages.update']);
        break;
      case 'messages.reaction':
        events = map.mapReactions(this.ctx, data as BaileysEventMap['messages.reaction']);
        break;
      case 'message-receipt.update':
        events = map.mapReceipts(this.ctx, data as BaileysEventMap['message-receipt.update']);
        break;
      case 'lid-mapping.update':
        events = map.mapLidMapping(this.ctx, data as BaileysEventMap['lid-mapping.update']);
        break;
      case 'contacts.upsert':
      case 'contacts.update':
        events = map.mapContacts(this.ctx, data as BaileysEventMap['contacts.upsert']);
        this.learnContacts(events);
        break;
      default:
        return;
    }
    for (const e of events) this.events.emitEvent(e);
  }

  private async onConnection(sock: BaileysSocket, update: Partial<ConnectionState>) {
    if (sock !== this.sock) return;
    if (update.qr) await this.onQr(sock, update.qr);
    if (update.connection === 'open') {
      this.attempt = 0;
      this.qrShown = 0;
      const me = map.identitiesOf(sock.user?.id, sock.user?.lid);
      this.setStatus({ status: 'CONNECTED', me });
    }
    if (update.connection === 'close') {
      const error = update.lastDisconnect?.error as
        { output?: { statusCode?: number } } | undefined;
      this.onClose(error?.output?.statusCode);
    }
  }

  private async onQr(sock: BaileysSocket, qr: string) {
    if (this.pairingPhone && !this.auth?.state.creds.registered) {
      // The socket is ready to pair once it offers a QR; ask for a code instead of showing it.
      if (this.current === 'PAIRING') return;
      const pairingCode = await sock.requestPairingCode(this.pairingPhone);
      if (sock === this.sock) this.setStatus({ status: 'PAIRING', pairingCode });
      return;
    }
    this.qrShown++;
    const decision = qrCycleDecision(this.qrShown, this.options.maxQrCycles);
    if (decision.action === 'give-up') {
      this.running = false;
      await this.teardown();
      this.setStatus({ status: decision.status, retries: this.qrShown - 1 });
      return;
    }
    this.setStatus({ status: 'qrcode', qr, retries: this.qrShown });
  }

  private onClose(code: number | undefined) {
    if (!this.running) return;
    const now = Date.now();
    const windowMs = this.options.replacedWindowMs ?? 10 * 60_000;
    this.replacedAt = this.replacedAt.filter((t) => now - t < windowMs);
    const recent = code === 440 ? this.replacedAt.length : 0;
    if (code === 440) this.replacedAt.push(now);
    const policy = this.options.reconnectPolicy ?? DEFAULT_RECONNECT_POLICY;
    const decision = reconnectDecision(code, this.attempt, recent, policy);
    this.options.logger.info({ code, decision }, 'whatsapp connection closed');
    this.setStatus({ status: decision.status, ...(code !== undefined && { reason: code }) });

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
          this.running = false;
          await this.teardown();
          this.setStatus({ status: 'DISCONNECTED', reason: 440 });
        });
      case 'stop':
        this.running = false;
        return void this.teardown();
      case 'stop-and-wipe':
        this.running = false;
        return void this.teardown().then(() => this.wipe());
    }
  }

  private later(delayMs: number, run: () => Promise<void>) {
    this.cancelTimer?.();
    const schedule = this.options.schedule ?? defaultSchedule;
    this.cancelTimer = schedule(() => {
      this.cancelTimer = undefined;
      run().catch((err: unknown) => {
        this.options.logger.error({ err }, 'whatsapp reconnect failed');
        this.onClose(undefined);
      });
    }, delayMs);
  }

  private setStatus(event: Omit<ConnectionEvent, 'connectionId'>) {
    this.current = event.status;
    this.events.emit('connection', { connectionId: this.connectionId, ...event });
  }

  /** Creds writes run one after another, so an older one never lands last. */
  private saveCreds(update: BaileysEventMap['creds.update']) {
    const auth = this.auth;
    if (!auth) return;
    Object.assign(auth.state.creds, update);
    this.credsWrite = this.credsWrite
      .then(() => auth.saveCreds())
      .catch((err: unknown) => this.options.logger.error({ err }, 'saving whatsapp creds failed'));
  }

  private async wipe() {
    await this.credsWrite;
    await this.options.authStore.wipe();
    // The next start loads from the empty store: a fresh identity, as a new connection has.
    this.auth = undefined;
  }

  private async lookupMessage(key: WAMessageKey): Promise<proto.IMessage | undefined> {
    const recent = key.id ? this.recentSent.get(key.id) : undefined;
    if (recent) return recent;
    const payload = await this.options.getMessage?.(map.refOf(key));
    return payload ? proto.Message.decode(Buffer.from(payload, 'base64')) : undefined;
  }

  private live(): BaileysSocket {
    if (!this.sock || this.current !== 'CONNECTED') throw notConnected();
    return this.sock;
  }

  private async quoted(ref: MessageRef | undefined): Promise<WAMessage | undefined> {
    if (!ref) return undefined;
    const key = { remoteJid: toJid(ref.chatId), id: ref.id, fromMe: ref.fromMe };
    const message = (await this.lookupMessage(key)) ?? { conversation: '' };
    return { key: { ...key, ...(ref.participant && { participant: ref.participant }) }, message };
  }

  private async send(
    to: ChatTarget,
    content: Parameters<BaileysSocket['sendMessage']>[1],
    options: SendOptions = {},
  ): Promise<SentMessage> {
    const sock = this.live();
    const quoted = await this.quoted(options.quoted);
    const sent = await sock.sendMessage(toJid(to), content, {
      ...(quoted && { quoted }),
      ...(options.messageId && { messageId: options.messageId }),
    });
    if (!sent?.key.id) throw new Error('WhatsApp did not accept the message');
    const result: SentMessage = { ref: map.refOf(sent.key), timestamp: Date.now() };
    if (sent.message) {
      this.remember(sent.key.id, sent.message);
      const bytes = proto.Message.encode(sent.message).finish();
      result.providerPayload = Buffer.from(bytes).toString('base64');
    }
    return result;
  }

  private remember(id: string, message: proto.IMessage) {
    this.recentSent.set(id, message);
    if (this.recentSent.size > RECENT_SENT_LIMIT) {
      this.recentSent.delete(this.recentSent.keys().next().value as string);
    }
  }

  sendText(to: ChatTarget, text: string, options?: SendOptions) {
    return this.send(to, { text }, options);
  }

  sendMedia(to: ChatTarget, media: OutboundMedia, options?: SendOptions) {
    return this.send(to, mediaContent(media), options);
  }

  sendLocation(to: ChatTarget, location: Location, options?: SendOptions) {
    return this.send(to, locationContent(location), options);
  }

  sendContacts(to: ChatTarget, cards: ContactCard[], options?: SendOptions) {
    return this.send(to, contactsContent(cards), options);
  }

  async editText(target: MessageRef, text: string): Promise<void> {
    await this.send(target.chatId, { text, edit: keyOf(target) });
  }

  async deleteMessage(target: MessageRef): Promise<void> {
    await this.send(target.chatId, { delete: keyOf(target) });
  }

  async react(target: MessageRef, emoji: string): Promise<void> {
    await this.send(target.chatId, { react: { text: emoji, key: keyOf(target) } });
  }

  async markRead(refs: MessageRef[]): Promise<void> {
    await this.live().readMessages(refs.map(keyOf));
  }

  async setPresence(to: ChatTarget, presence: Presence): Promise<void> {
    await this.live().sendPresenceUpdate(presence, toJid(to));
  }

  async checkNumber(phone: string): Promise<NumberCheck> {
    const [found] = (await this.live().onWhatsApp(phone.replace(/\D/g, ''))) ?? [];
    if (!found?.exists) return { exists: false };
    return { exists: true, chatId: found.jid, identities: map.identitiesOf(found.jid) };
  }

  async listContacts(): Promise<ContactInfo[]> {
    this.live();
    return [...this.phoneBook.values()];
  }

  async profilePicture(to: ChatTarget): Promise<string | undefined> {
    // WhatsApp answers 401/404 for private or missing pictures: that is "no picture".
    return this.live()
      .profilePictureUrl(toJid(to), 'image')
      .catch(() => undefined);
  }

  async downloadMedia(media: { locator: string }): Promise<Uint8Array> {
    const locator = map.decodeMediaLocator(media.locator);
    const stream = await downloadContentFromMessage(
      {
        mediaKey: Buffer.from(locator.mediaKey, 'base64'),
        directPath: locator.directPath ?? null,
        url: locator.url ?? null,
      },
      locator.type,
    );
    return toBuffer(stream);
  }
}

function keyOf(ref: MessageRef): WAMessageKey {
  return {
    remoteJid: toJid(ref.chatId),
    id: ref.id,
    fromMe: ref.fromMe,
    ...(ref.participant && { participant: ref.participant }),
  };
}
