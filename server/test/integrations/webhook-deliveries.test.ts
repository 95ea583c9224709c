// Webhook and n8n integrations (issue 18 item 2): the signed, versioned payload delivered from a
// customer's message, retries with backoff after the receiver was down, a worker killed
// mid-retry (the delivery still arrives once), dead letters and their replay, and the
// synchronous reply (messages, then transfer/close/tag).
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sweepDurable, type DurableJob } from '../../src/jobs/durable.js';
import { verifyWebhook } from '../../src/modules/automation/clients/webhook.js';
import { setDeliveryClock, webhookDeliveryJob } from '../../src/modules/integrations/deliveries.js';
import { databaseUrl } from '../db-url.js';
import { createCompanyWithAdmin } from '../fixtures.js';
import { startTestServer, type TestServer } from '../harness.js';
import { customer, scene, ticketOf, type Scene } from '../routing/scenario.js';
import { startWebhookReceiver } from '../standins/webhook.js';

const serverDir = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const job = webhookDeliveryJob as DurableJob<unknown>;
let server: TestServer;
let child: ChildProcess | undefined;
let offset = 0;

beforeAll(async () => {
  server = await startTestServer();
  setDeliveryClock(() => new Date(Date.now() + offset));
});
afterEach(() => {
  offset = 0;
  if (child?.pid && child.exitCode === null && child.signalCode === null)
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  child = undefined;
});
afterAll(async () => {
  setDeliveryClock(null);
  await server?.close();
});

const until = async <T>(probe: () => Promise<T | undefined | false>, ms = 15_000): Promise<T> => {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
};

/** Moves the deliveries' clock and fires what is due now. */
async function later(ms: number) {
  offset += ms;
  await sweepDurable(server.app, [job]);
}

const deliveryOf = async (integrationId: number) =>
  (
    await server.app.ds.query(
      `SELECT id, status, attempts, "lastError", "lastStatus", "deliveryId", payload
         FROM webhook_deliveries WHERE "integrationId" = $1 ORDER BY id DESC LIMIT 1`,
      [integrationId],
    )
  )[0];

/** An n8n integration on the scene's first queue, pointing at `url` once it is known. */
async function integrationFor(s: Scene, type: 'n8n' | 'webhook') {
  const made = await server.request<any>('POST', '/queueIntegration', {
    token: s.admin.token,
    body: { type, name: `Fluxo ${type}`, urlN8N: 'https://placeholder.example.com/hook' },
  });
  expect(made.status).toBe(200);
  const queueId = Object.values(s.queues)[0]!;
  await server.request('PUT', `/queue/${queueId}`, {
    token: s.admin.token,
    body: { integrationId: made.body.id },
  });
  const point = (url: string) =>
    server.request('PUT', `/queueIntegration/${made.body.id}`, {
      token: s.admin.token,
      body: { urlN8N: url },
    });
  return { id: made.body.id as number, secret: made.body.webhookSecret as string, point };
}

describe('webhook deliveries', () => {
  it('retries with backoff while the receiver is down, then delivers a signed v1 payload once', async () => {
    const s = await scene(server, { queues: [{ name: 'Vendas' }] });
    const integration = await integrationFor(s, 'n8n');
    const receiver = await startWebhookReceiver({ secrets: [integration.secret] });
    try {
      await integration.point(receiver.url);
      await receiver.down();
      const bia = customer(s, '5511911110001', 'Bia');
      await bia.say('Quero a segunda via do boleto');
      const first = await until(async () => {
        const d = await deliveryOf(integration.id);
        return d?.attempts >= 1 ? d : undefined;
      });
      expect(first).toMatchObject({ status: 'pending' });
      expect(first.lastError).toMatch(/^ERR_INTEGRATION_UNREACHABLE/);
      expect(first.lastError).not.toContain('/webhook/atende');
      // Not before its backoff (≈ 5 s): nothing is due yet.
      await sweepDurable(server.app, [job]);
      expect((await deliveryOf(integration.id)).attempts).toBe(1);
      await later(10_000);
      await until(async () => (await deliveryOf(integration.id)).attempts >= 2);
      expect(receiver.accepted).toHaveLength(0);

      await receiver.up();
      await later(60 * 60_000);
      const done = await until(async () => {
        const d = await deliveryOf(integration.id);
        return d.status === 'delivered' ? d : undefined;
      });
      expect(done.attempts).toBe(3);
      expect(receiver.accepted).toHaveLength(1);
      expect(receiver.refused).toEqual([]);
      const ticket = await ticketOf(server, s, '5511911110001');
      const got = receiver.accepted[0]!;
      expect(got.id).toBe(done.deliveryId);
      expect(got.payload).toMatchObject({
        version: 1,
        event: 'message.received',
        id: done.deliveryId,
        companyId: s.companyId,
        integrationId: integration.id,
        sessionId: ticket.uuid,
        chatInput: 'Quero a segunda via do boleto',
        ticket: { id: ticket.id, uuid: ticket.uuid, status: 'pending' },
        contact: { name: 'Bia', number: '5511911110001' },
        message: { body: 'Quero a segunda via do boleto', fromMe: false, mediaType: 'chat' },
      });
      const raw = JSON.stringify(got.payload);
      expect(raw).not.toContain(integration.secret.slice(6));
      expect(raw).not.toContain('whsec_');
      expect(got.headers['user-agent']).toBe('Atende-Webhooks/1');
    } finally {
      await receiver.close();
    }
  }, 90_000);

  it('a refused delivery is a dead letter the admin replays; the ticket falls back to its queue', async () => {
    const s = await scene(server, { queues: [{ name: 'Suporte' }] });
    const integration = await integrationFor(s, 'webhook');
    const receiver = await startWebhookReceiver({ secrets: [integration.secret] });
    try {
      await integration.point(receiver.url);
      receiver.answerWith(() => ({ status: 400, body: { message: 'campo faltando' } }));
      const caio = customer(s, '5511911110002', 'Caio');
      await caio.say('meu pedido atrasou');
      const dead = await until(async () => {
        const d = await deliveryOf(integration.id);
        return d?.status === 'dead' ? d : undefined;
      });
      expect(dead).toMatchObject({ attempts: 1, lastStatus: 400 });
      const [session] = await server.app.ds.query(
        `SELECT "handOffReason" FROM integration_sessions WHERE "integrationId" = $1`,
        [integration.id],
      );
      expect(session.handOffReason).toBe('failed');

      const list = await server.request<any>('GET', '/queueIntegration/deliveries?status=dead', {
        token: s.admin.token,
      });
      expect(list.status).toBe(200);
      expect(list.body.deliveries.map((d: any) => d.id)).toEqual([dead.id]);
      expect(JSON.stringify(list.body)).not.toContain(integration.secret.slice(6));
      const notDead = await server.request<any>(
        'POST',
        `/queueIntegration/deliveries/${dead.id}/replay`,
        { token: (await createCompanyWithAdmin(server)).admin.token },
      );
      expect(notDead.status).toBe(404);

      receiver.answerWith(() => ({ status: 204 }));
      const replay = await server.request<any>(
        'POST',
        `/queueIntegration/deliveries/${dead.id}/replay`,
        { token: s.admin.token },
      );
      expect(replay.status).toBe(200);
      expect(replay.body).toMatchObject({ status: 'pending', attempts: 0 });
      await until(async () => (await deliveryOf(integration.id)).status === 'delivered');
      expect(receiver.accepted.map((a) => a.id)).toEqual([dead.deliveryId]);
      const again = await server.request<any>(
        'POST',
        `/queueIntegration/deliveries/${dead.id}/replay`,
        { token: s.admin.token },
      );
      expect(again.body.error).toBe('ERR_DELIVERY_NOT_DEAD');
    } finally {
      await receiver.close();
    }
  }, 90_000);

  it("answers with a synchronous reply's messages, then transfers", async () => {
    const s = await scene(server, {
      queues: [{ name: 'Bot' }, { name: 'Financeiro' }],
      connection: { greetingMessage: 'Escolha:' },
    });
    const integration = await integrationFor(s, 'n8n');
    const receiver = await startWebhookReceiver({ secrets: [integration.secret] });
    const tag = await server.request<any>('POST', '/tags', {
      token: s.admin.token,
      body: { name: 'boleto', color: '#ff0000' },
    });
    try {
      await integration.point(receiver.url);
      receiver.answerWith((payload) => ({
        status: 200,
        body: {
          messages: [
            { body: `Olá ${payload.contact.name}!` },
            { body: 'Vou te passar ao financeiro.' },
          ],
          actions: [
            { type: 'tag', tagId: tag.body.id },
            { type: 'transfer', queueId: s.queues.Financeiro },
          ],
        },
      }));
      const dani = customer(s, '5511911110003', 'Dani');
      await dani.say('oi');
      await dani.replies(1); // the queue menu
      await dani.say('1');
      const replies = await dani.replies(2);
      expect(replies.map((m) => m.body)).toEqual(['Olá Dani!', 'Vou te passar ao financeiro.']);
      const ticket = await until(async () => {
        const t = await ticketOf(server, s, '5511911110003');
        return t.queueId === s.queues.Financeiro ? t : undefined;
      });
      expect(ticket).toMatchObject({ status: 'pending', userId: null });
      const [{ n }] = await server.app.ds.query(
        'SELECT count(*)::int AS n FROM ticket_tags WHERE "ticketId" = $1 AND "tagId" = $2',
        [ticket.id, tag.body.id],
      );
      expect(n).toBe(1);
      await dani.say('obrigada');
      expect(await dani.silence()).toEqual([]);
    } finally {
      await receiver.close();
    }
  }, 90_000);

  it('a worker killed mid-retry: the delivery still arrives once, its reply is sent once', async () => {
    const s = await scene(server, { queues: [{ name: 'Pedidos' }] });
    const integration = await integrationFor(s, 'webhook');
    // A receiver that can fail, hold a request open, or answer; it dedupes on webhook-id.
    let mode: 'fail' | 'hold' | 'ok' = 'fail';
    const seen: string[] = [];
    const processed = new Set<string>();
    let heldOne: () => void = () => undefined;
    const held = new Promise<void>((r) => (heldOne = r));
    const receiver = createServer((req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        if (!verifyWebhook([integration.secret], req.headers, body).ok) {
          res.writeHead(401).end();
          return;
        }
        const id = String(req.headers['webhook-id']);
        seen.push(`${mode}:${id}`);
        if (mode === 'fail') res.writeHead(503).end();
        else if (mode === 'hold') heldOne();
        else {
          const first = !processed.has(id);
          processed.add(id);
          res
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify(first ? { messages: [{ body: 'Pedido recebido.' }] } : {}));
        }
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    try {
      await integration.point(url);
      const eva = customer(s, '5511911110004', 'Eva');
      await eva.say('cadê meu pedido?');
      const failed = await until(async () => {
        const d = await deliveryOf(integration.id);
        return d?.attempts === 1 ? d : undefined;
      });
      expect(failed.lastStatus).toBe(503);
      // This process's workers must not take the retry while the child has it.
      offset = -60 * 60_000;
      mode = 'hold';
      const [row] = await server.app.ds.query(
        `SELECT id::int AS id FROM durable_jobs WHERE kind = 'integration-webhook' AND key = $1`,
        [`delivery:${failed.id}`],
      );
      let output = '';
      child = spawn('npx', ['tsx', 'test/integrations/delivery-child.ts'], {
        cwd: serverDir,
        env: {
          ...process.env,
          DATABASE_URL: databaseUrl(server.database),
          DATABASE_NAME: server.database,
          REDIS_URL: server.app.config.REDIS_URL,
          REDIS_PREFIX: server.app.prefix,
          DELIVERY_JOB_ID: String(row.id),
          CLOCK_AHEAD_MS: String(60 * 60_000),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      child.stderr!.on('data', (d: Buffer) => (output += String(d)));
      const proc = child;
      proc.stdout!.on('data', (d: Buffer) => (output += String(d)));
      const exited = new Promise((r) => proc.once('exit', r));
      // The child's retry is in flight (a child that ends before is a failure of the test).
      await Promise.race([
        held,
        exited.then(() => {
          throw new Error(`the child ended before its attempt: ${output}`);
        }),
      ]);
      process.kill(-proc.pid!, 'SIGKILL');
      await exited;
      expect((await deliveryOf(integration.id)).status).toBe('pending');

      mode = 'ok';
      offset = 2 * 60 * 60_000;
      await sweepDurable(server.app, [job]);
      await until(async () => (await deliveryOf(integration.id)).status === 'delivered');
      expect((await eva.replies(1))[0]!.body).toBe('Pedido recebido.');
      // Sweeping again changes nothing: delivered once, replied once.
      offset += 24 * 60 * 60_000;
      await sweepDurable(server.app, [job]);
      expect(await eva.silence()).toEqual([]);
      const ids = new Set(seen.map((s) => s.split(':')[1]));
      expect(ids.size).toBe(1);
      expect(seen.map((s) => s.split(':')[0])).toEqual(['fail', 'hold', 'ok']);
      expect(processed.size).toBe(1);
    } finally {
      heldOne();
      offset = 0;
      receiver.closeAllConnections();
      await new Promise((r) => receiver.close(r));
    }
  }, 120_000);
});
