// A typed client for the simulator's control API, for tests and the benchmark runner.
import type {
  SimDeliveries,
  SimFaults,
  SimOutbound,
  SimState,
} from '../src/whatsapp/simulator/network.js';

export type { SimDeliveries, SimFaults, SimOutbound, SimState };

export interface InboundInput {
  whatsappId: number;
  from: string;
  name?: string;
  body?: string;
  media?: { mimetype: string; fileName?: string; base64: string };
  quotedId?: string;
  id?: string;
  lid?: string;
  group?: { id: string; subject?: string };
}

export interface ConnectionState extends SimState {
  status: string;
  qrcode: string;
  retries: number;
}

export class SimulatorError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`simulator answered ${status}: ${JSON.stringify(body)}`);
  }
}

export class SimulatorClient {
  /** @param baseUrl the server's URL; @param token an access token of the company's admin */
  constructor(
    readonly baseUrl: string,
    public token: string,
  ) {}

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(this.baseUrl + path, {
      method,
      headers: {
        authorization: `Bearer ${this.token}`,
        accept: 'application/json',
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    const parsed: unknown = text ? JSON.parse(text) : undefined;
    if (!res.ok) throw new SimulatorError(res.status, parsed);
    return parsed as T;
  }

  /** The phone scans the QR code shown; the session connects (after WhatsApp's 515). */
  scan(whatsappId: number, number?: string): Promise<{ ok: true }> {
    return this.call('POST', `/simulator/connections/${whatsappId}/scan`, number ? { number } : {});
  }

  /** A customer writes; answers the WhatsApp id of the message. */
  inbound(input: InboundInput): Promise<{ id: string }> {
    return this.call('POST', '/simulator/inbound', input);
  }

  /** What the platform sent on a connection, in order. */
  outbound(whatsappId: number): Promise<SimOutbound[]> {
    return this.call('GET', `/simulator/outbound?whatsappId=${whatsappId}`);
  }

  /** A delivery (3) or read (4) receipt for a message the platform sent. */
  ack(whatsappId: number, id: string, ack: 0 | 1 | 2 | 3 | 4 | 5): Promise<{ ok: true }> {
    return this.call('POST', '/simulator/ack', { whatsappId, id, ack });
  }

  /** WhatsApp closes the connection with a Baileys reason code (408, 428, 440, 401, 515...). */
  drop(whatsappId: number, code: number): Promise<{ ok: true }> {
    return this.call('POST', `/simulator/connections/${whatsappId}/drop`, { code });
  }

  faults(whatsappId: number, faults: Partial<SimFaults>): Promise<SimFaults> {
    return this.call('POST', `/simulator/connections/${whatsappId}/faults`, faults);
  }

  /** How often each customer message was handed to the session. */
  deliveries(whatsappId: number): Promise<SimDeliveries> {
    return this.call('GET', `/simulator/connections/${whatsappId}/deliveries`);
  }

  /** Many customers' messages in one call (up to 1,000); answers their WhatsApp ids in order. */
  inboundBatch(messages: InboundInput[]): Promise<{ ids: string[] }> {
    return this.call('POST', '/simulator/inbound/batch', { messages });
  }

  state(whatsappId: number): Promise<ConnectionState> {
    return this.call('GET', `/simulator/connections/${whatsappId}`);
  }

  /** Polls `check` until it returns a value (not undefined/false) or the time runs out. */
  async until<T>(check: () => Promise<T | undefined | false>, timeoutMs = 10_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await check();
      if (value !== undefined && value !== false) return value;
      if (Date.now() > deadline) throw new Error('simulator: condition not met in time');
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Waits until the connection's session shows `status`. */
  waitForStatus(whatsappId: number, status: string, timeoutMs?: number): Promise<ConnectionState> {
    return this.until(async () => {
      const state = await this.state(whatsappId);
      return state.status === status ? state : undefined;
    }, timeoutMs);
  }

  /** Scans the QR code of a simulator connection whose session is starting; waits for CONNECTED. */
  async connect(whatsappId: number, number?: string): Promise<ConnectionState> {
    await this.waitForStatus(whatsappId, 'qrcode');
    await this.scan(whatsappId, number);
    return this.waitForStatus(whatsappId, 'CONNECTED');
  }
}
