import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from '../../src/modules/automation/clients/webhook.js';

/**
 * A webhook receiver (an n8n "Webhook" node, or anyone's endpoint) that checks every delivery
 * the way Standard Webhooks tells receivers to: `verifyWebhook` with its secret, and the
 * `webhook-id` remembered so a retried delivery is processed once. `down()` stops listening
 * (connections refused) and `up()` listens again on the same port.
 */
export interface Accepted {
  id: string;
  payload: any;
  headers: IncomingMessage['headers'];
}

export async function startWebhookReceiver(options: { secrets: string[]; path?: string }) {
  const accepted: Accepted[] = [];
  const refused: { error: string }[] = [];
  const processed = new Set<string>();
  let duplicates = 0;
  let answer: (payload: any) => { status: number; body?: unknown } = () => ({ status: 204 });
  const path = options.path ?? '/webhook/atende';

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (req.method !== 'POST' || req.url !== path) {
        res.writeHead(404).end();
        return;
      }
      const verified = verifyWebhook(options.secrets, req.headers, body);
      if (!verified.ok) {
        refused.push({ error: verified.error });
        res
          .writeHead(401, { 'content-type': 'application/json' })
          .end(JSON.stringify({ message: verified.error }));
        return;
      }
      const id = String(req.headers['webhook-id']);
      const payload = JSON.parse(body);
      if (processed.has(id)) duplicates += 1;
      else {
        processed.add(id);
        accepted.push({ id, payload, headers: req.headers });
      }
      const reply = answer(payload);
      if (reply.body === undefined) res.writeHead(reply.status).end();
      else {
        res.writeHead(reply.status, { 'content-type': 'application/json' });
        res.end(typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body));
      }
    });
  });
  server.keepAliveTimeout = 1;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;

  return {
    url: `${base}${path}`,
    accepted,
    refused,
    get duplicates() {
      return duplicates;
    },
    /** What the receiver answers to a verified delivery (default 204, no body). */
    answerWith(fn: typeof answer) {
      answer = fn;
    },
    down: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
    up: () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve)),
    close: () =>
      new Promise<void>((resolve) => {
        if (!server.listening) return resolve();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
