import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a stand-in received, as the tests read it. */
export interface Received {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export type Handler = (request: Received) => Answer | Promise<Answer>;

export interface Standin {
  /** `http://127.0.0.1:<port>` */
  url: string;
  received: Received[];
  close(): Promise<void>;
}

/**
 * A real HTTP server on 127.0.0.1, port 0, that answers with `handle`. A Buffer body is sent as
 * is; anything else as JSON. Every request is kept in `received` for the test to inspect.
 */
export async function startStandin(handle: Handler): Promise<Standin> {
  const received: Received[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request: Received = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      received.push(request);
      Promise.resolve()
        .then(() => handle(request))
        .then(
          (answer) => reply(res, answer),
          (error: unknown) => reply(res, { status: 500, body: { message: String(error) } }),
        );
    });
  });
  server.keepAliveTimeout = 1;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function reply(res: ServerResponse, answer: Answer) {
  const isBytes = Buffer.isBuffer(answer.body);
  const body =
    answer.body === undefined
      ? ''
      : isBytes
        ? (answer.body as Buffer)
        : JSON.stringify(answer.body);
  res.writeHead(answer.status, {
    ...(answer.body !== undefined && !isBytes ? { 'content-type': 'application/json' } : {}),
    ...answer.headers,
  });
  res.end(body);
}

/** The request body as JSON (the stand-ins' documented APIs all take JSON but one). */
export const jsonOf = (request: Received): unknown => JSON.parse(request.body.toString('utf8'));

/** A multipart body parsed by the platform's own `FormData` reader. */
export const formOf = (request: Received): Promise<FormData> =>
  new Response(new Uint8Array(request.body), {
    headers: { 'content-type': String(request.headers['content-type'] ?? '') },
  }).formData();
