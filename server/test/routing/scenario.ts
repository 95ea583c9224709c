// A company with a simulator connection and queues, and a customer who writes and reads.
import { createCompanyWithAdmin } from '../fixtures.js';
import type { Session, TestServer } from '../harness.js';
import { SimulatorClient, type SimOutbound } from '../simulator-client.js';

export interface Scene {
  companyId: number;
  admin: Session;
  whatsappId: number;
  queues: Record<string, number>;
  sim: SimulatorClient;
}

export async function scene(
  server: TestServer,
  options: {
    queues?: {
      name: string;
      greetingMessage?: string;
      outOfHoursMessage?: string;
      orderQueue?: number;
    }[];
    connection?: Record<string, unknown>;
    settings?: Record<string, string>;
  } = {},
): Promise<Scene> {
  const company = await createCompanyWithAdmin(server);
  const token = company.admin.token;
  const queues: Record<string, number> = {};
  let i = 0;
  for (const q of options.queues ?? []) {
    const res = await server.request('POST', '/queue', {
      token,
      body: { color: `#0000${String(++i).padStart(2, '0')}`, ...q },
    });
    if (res.status !== 201) throw new Error(`queue: ${JSON.stringify(res.body)}`);
    queues[q.name] = res.body.id;
  }
  for (const [key, value] of Object.entries(options.settings ?? {})) {
    const res = await server.request('PUT', `/settings/${key}`, { token, body: { value } });
    if (res.status !== 200) throw new Error(`setting ${key}: ${JSON.stringify(res.body)}`);
  }
  const res = await server.request('POST', '/whatsapp', {
    token,
    body: {
      name: `Sim ${Date.now()}`,
      provider: 'simulator',
      queueIds: Object.values(queues),
      ...options.connection,
    },
  });
  if (res.status !== 201) throw new Error(`connection: ${JSON.stringify(res.body)}`);
  const sim = new SimulatorClient(server.url, token);
  await sim.connect(res.body.id);
  return {
    companyId: company.companyId,
    admin: company.admin,
    whatsappId: res.body.id,
    queues,
    sim,
  };
}

/** A customer of the scene: writes, and waits for what the platform answers. */
export function customer(s: Scene, phone: string, name = 'Cliente Teste') {
  let seen = 0;
  const mine = async () =>
    (await s.sim.outbound(s.whatsappId)).filter(
      (m: SimOutbound) => m.to.startsWith(phone) || m.chatId.startsWith(phone),
    );
  return {
    say: (body: string) => s.sim.inbound({ whatsappId: s.whatsappId, from: phone, name, body }),
    /** The next `n` messages sent to this customer (waits for them). */
    async replies(n = 1): Promise<SimOutbound[]> {
      const all = await s.sim.until(async () => {
        const list = await mine();
        return list.length >= seen + n ? list : undefined;
      });
      const next = all.slice(seen, seen + n);
      seen += n;
      return next;
    },
    /** Asserts nothing more arrives within `ms`. */
    async silence(ms = 700): Promise<SimOutbound[]> {
      await new Promise((r) => setTimeout(r, ms));
      return (await mine()).slice(seen);
    },
  };
}

export async function ticketOf(server: TestServer, s: Scene, phone: string) {
  const [row] = (await server.app.ds.query(
    `SELECT t.* FROM tickets t JOIN contacts c ON c.id = t."contactId"
      WHERE t."companyId" = $1 AND c.number = $2 ORDER BY t.id DESC LIMIT 1`,
    [s.companyId, phone],
  )) as any[];
  return row;
}
