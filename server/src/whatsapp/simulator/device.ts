// A linked device on the simulated network, connection side: QR or pairing code, 515 after the
// scan, the Baileys reconnect policy, and inbound delivery with WhatsApp's faults.
import { randomBytes } from 'node:crypto';
import { PortEventEmitter } from '../port.js';
import type { ConnectionEvent, ConnectionStatus, Identities, StartOptions } from '../port.js';
import {
  DEFAULT_RECONNECT_POLICY,
  qrCycleDecision,
  reconnectDecision,
} from '../baileys/reconnect.js';
import type { ReconnectPolicy } from '../baileys/reconnect.js';
import { toPortMessage } from './inbound.js';
import type { SimDelivery, SimFaults, SimInbound, SimNetwork } from './network.js';

export interface SimulatorProviderOptions {
  connectionId: string;
  network: SimNetwork;
  /** Subscribes to wake-ups for this connection; returns the unsubscribe function. */
  onWake: (connectionId: string, wake: () => void) => () => void;
  checkOwnership?: () => Promise<boolean>;
  /**
   * Resolves once what this device emitted is durable where the session keeps it. The next
   * deliveries are read only then: a frame not yet read has no receipt.
   */
  whenDurable?: () => Promise<void>;
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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Deliveries read from the network at once at most: with `whenDurable`, what was handed over (the
 * receipt sent) and is not yet durable is at most this many.
 */
export const READ_BATCH = 100;

/** The connection side of a simulated device: lifecycle, reconnects and inbound delivery. */
export class SimulatedDevice {
  readonly connectionId: string;
  readonly events: PortEventEmitter;
  protected current: ConnectionStatus = 'DISCONNECTED';
  protected running = false;
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
  protected me: Identities = {};

  constructor(private readonly options: SimulatorProviderOptions) {
    this.connectionId = options.connectionId;
    this.events = new PortEventEmitter(options.onError);
  }

  protected get network() {
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
    if (reconnected && faults.replayOnReconnect && !faults.noReplay) {
      const replay = await this.network.unreadDelivered(this.connectionId);
      for (const [i, message] of replay.entries()) {
        if (i % READ_BATCH === 0) await this.durable();
        await this.network.countHandover(this.connectionId, message.id);
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
    for (;;) {
      // What was emitted before is durable first: then the next read, and its receipts.
      await this.durable();
      if (!this.running || this.current !== 'CONNECTED') return;
      // Read before the take: nothing but the emit between the receipt and the append.
      const faults = await this.network.faults(this.connectionId);
      const deliveries = await this.network.takeInbox(this.connectionId, READ_BATCH);
      if (!deliveries.length) return;
      const messages: SimInbound[] = [];
      for (const { delivery, handovers } of deliveries) {
        if (delivery.kind !== 'message') this.emitAck(delivery);
        // Counted as delivered before: real WhatsApp never sends it again.
        else if (!faults.noReplay || handovers <= 1) messages.push(delivery.message);
      }
      await this.deliverAll(messages, faults);
      if (deliveries.length < READ_BATCH) return;
    }
  }

  private durable(): Promise<void> {
    return this.options.whenDurable?.() ?? Promise.resolve();
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
    const message = toPortMessage(
      this.connectionId,
      inbound,
      replay || inbound.at < this.connectedAt,
    );
    if (faults.ciphertextFirst) {
      const { media: _media, quotedId: _quoted, ...stub } = message;
      this.events.emit('message', { ...stub, type: 'ciphertext', body: '' });
      await sleep(20);
    }
    this.events.emit('message', message);
    if (faults.duplicate && !faults.noReplay) this.events.emit('message', { ...message });
  }
}
