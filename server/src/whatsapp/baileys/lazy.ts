// Baileys (and what it pulls in) costs every server start about a third of a second of CPU, and
// most servers run no real WhatsApp number (the api role, the simulator, a host whose numbers are
// all on another worker). A connection's provider is this stand-in until the first call that
// needs the real one: then the module is loaded once and every event is passed through.
import {
  PORT_EVENT_NAMES,
  PortEventEmitter,
  type ChatTarget,
  type ConnectionStatus,
  type ContactCard,
  type Location,
  type MediaRef,
  type MessageRef,
  type OutboundMedia,
  type Presence,
  type SendOptions,
  type StartOptions,
  type WhatsAppProvider,
} from '../port.js';

export class LazyProvider implements WhatsAppProvider {
  readonly events = new PortEventEmitter();
  private loading: Promise<WhatsAppProvider> | undefined;
  private loaded: WhatsAppProvider | undefined;

  constructor(
    readonly connectionId: string,
    private readonly load: () => Promise<WhatsAppProvider>,
  ) {}

  /** The real provider, loaded on the first call that needs it. */
  private real(): Promise<WhatsAppProvider> {
    this.loading ??= this.load().then((provider) => {
      for (const name of PORT_EVENT_NAMES) {
        provider.events.on(name, (payload) => this.events.emit(name, payload as never));
      }
      this.loaded = provider;
      return provider;
    });
    return this.loading;
  }

  status(): ConnectionStatus {
    return this.loaded?.status() ?? 'DISCONNECTED';
  }

  async start(options?: StartOptions) {
    return (await this.real()).start(options);
  }
  /** Never started: nothing to stop, and nothing to load for it. */
  async stop() {
    if (this.loading) await (await this.loading).stop();
  }
  async logout() {
    return (await this.real()).logout();
  }
  async sendText(to: ChatTarget, text: string, options?: SendOptions) {
    return (await this.real()).sendText(to, text, options);
  }
  async sendMedia(to: ChatTarget, media: OutboundMedia, options?: SendOptions) {
    return (await this.real()).sendMedia(to, media, options);
  }
  async sendLocation(to: ChatTarget, location: Location, options?: SendOptions) {
    return (await this.real()).sendLocation(to, location, options);
  }
  async sendContacts(to: ChatTarget, cards: ContactCard[], options?: SendOptions) {
    return (await this.real()).sendContacts(to, cards, options);
  }
  async editText(target: MessageRef, text: string) {
    return (await this.real()).editText(target, text);
  }
  async deleteMessage(target: MessageRef) {
    return (await this.real()).deleteMessage(target);
  }
  async react(target: MessageRef, emoji: string) {
    return (await this.real()).react(target, emoji);
  }
  async markRead(refs: MessageRef[]) {
    return (await this.real()).markRead(refs);
  }
  async setPresence(to: ChatTarget, presence: Presence) {
    return (await this.real()).setPresence(to, presence);
  }
  async checkNumber(phone: string) {
    return (await this.real()).checkNumber(phone);
  }
  async listContacts() {
    return (await this.real()).listContacts();
  }
  async profilePicture(to: ChatTarget) {
    return (await this.real()).profilePicture(to);
  }
  async downloadMedia(media: MediaRef) {
    return (await this.real()).downloadMedia(media);
  }
}
