// Uploads (issue 11 items 3 and 7, issue 12 item 9): streamed to disk after authentication,
// checked against their declared type, counted against the company's storage quota, never a 5xx
// for bad input, and no temp file left on any way out. CSV export neutralises formulas.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { crc32, deflateRawSync } from 'node:zlib';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { spreadsheetText } from '../src/http/spreadsheet-cell.js';
import { storeMedia } from '../src/whatsapp/media.js';
import { mediaUsage } from '../src/whatsapp/media-quota.js';
import { createCompanyWithAdmin } from './fixtures.js';
import { startTestServer, type Session, type TestServer } from './harness.js';
import { SimulatorClient } from './simulator-client.js';
import { simConnection, until } from './ticketing/fixtures.js';

const MB = 1024 * 1024;
const QUOTA_MB = 8;
const UPLOAD_MAX = 6 * MB;
const PDF = (size: number) => {
  const bytes = Buffer.alloc(size, 0x20);
  bytes.write('%PDF-1.4\n');
  return bytes;
};

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** A one-entry zip (deflate), written by hand: the central directory declares the real size. */
function zipOf(name: string, content: Buffer): Buffer {
  const data = deflateRawSync(content, { level: 9 });
  const nameBytes = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(crc32(content), 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(content.length, 22);
  local.writeUInt16LE(nameBytes.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(crc32(content), 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(content.length, 24);
  central.writeUInt16LE(nameBytes.length, 28);
  const dirOffset = local.length + nameBytes.length + data.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + nameBytes.length, 12);
  end.writeUInt32LE(dirOffset, 16);
  return Buffer.concat([local, nameBytes, data, central, nameBytes, end]);
}

let server: TestServer;
let dataDir: string;

interface Company {
  companyId: number;
  admin: Session;
  sim: SimulatorClient;
  whatsappId: number;
}
let a: Company;

async function company(): Promise<Company> {
  const c = await createCompanyWithAdmin(server);
  const sim = new SimulatorClient(server.url, c.admin.token);
  return { ...c, sim, whatsappId: await simConnection(server, c.admin, sim) };
}

async function ticketFor(c: Company): Promise<number> {
  const phone = `55119${randomBytes(4).readUInt32BE() % 100_000_000}`.padEnd(13, '0');
  await c.sim.inbound({ whatsappId: c.whatsappId, from: phone, body: 'oi' });
  return until(async () => {
    const [row] = (await server.app.ds.query(
      `SELECT t.id FROM tickets t JOIN contacts c ON c.id = t."contactId"
        WHERE c.number = $1 AND t."companyId" = $2`,
      [phone, c.companyId],
    )) as { id: number }[];
    return row?.id;
  }, 10_000);
}

const tempFiles = async () => readdir(path.join(dataDir, 'upload-tmp')).catch(() => []);
const mediaFiles = async (companyId: number) =>
  readdir(path.join(dataDir, 'media', String(companyId))).catch(() => []);
const messageCount = async (ticketId: number) =>
  (
    (await server.app.ds.query(
      'SELECT count(*)::int AS n FROM messages WHERE "ticketId" = $1 AND "fromMe"',
      [ticketId],
    )) as { n: number }[]
  )[0]!.n;

interface Part {
  field?: string;
  bytes: Buffer | string;
  type?: string;
  name?: string;
}

function formOf(parts: Part[], fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const p of parts) {
    const blob = new Blob([p.bytes], p.type === undefined ? {} : { type: p.type });
    form.append(p.field ?? 'file', blob, p.name ?? 'arquivo');
  }
  return form;
}

async function send(
  route: string,
  token: string | undefined,
  body: FormData | string,
  headers: Record<string, string> = {},
) {
  const res = await fetch(server.url + route, {
    method: 'POST',
    headers: { ...(token && { authorization: `Bearer ${token}` }), ...headers },
    body,
  });
  const text = await res.text();
  let parsed: any = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, body: parsed };
}

/** A multipart request written by hand, so the test controls when each byte goes out. */
function openUpload(route: string, token: string | undefined, field: string, type: string) {
  const boundary = `----atende${randomBytes(6).toString('hex')}`;
  const url = new URL(server.url + route);
  const req = http.request({
    host: url.hostname,
    port: url.port,
    path: url.pathname,
    method: 'POST',
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'transfer-encoding': 'chunked',
      ...(token && { authorization: `Bearer ${token}` }),
    },
  });
  const response = new Promise<{ status: number; body: any }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, body: text && JSON.parse(text) }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
  req.write(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="grande.pdf"\r\n` +
      `Content-Type: ${type}\r\n\r\n`,
  );
  return {
    req,
    response,
    write: (bytes: Buffer) => req.write(bytes),
    end: () => req.end(`\r\n--${boundary}--\r\n`),
  };
}

const within = <T>(promise: Promise<T>, ms: number, what: string) =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(what)), ms).unref()),
  ]);

let queueId: number;
let optionId: number;
let quickId: number;
let ticketId: number;

beforeAll(async () => {
  dataDir = path.join(tmpdir(), `atende-uploads-${randomBytes(4).toString('hex')}`);
  server = await startTestServer({
    SIMULATOR: 'on',
    DATA_DIR: dataDir,
    MEDIA_QUOTA_MB: String(QUOTA_MB),
    UPLOAD_MAX_BYTES: String(UPLOAD_MAX),
  });
  a = await company();
  ticketId = await ticketFor(a);
  const token = a.admin.token;
  queueId = (
    await server.request('POST', '/queue', { token, body: { name: 'Anexos', color: '#123456' } })
  ).body.id;
  optionId = (
    await server.request('POST', '/queue-options', {
      token,
      body: { queueId, parentId: -1, title: 'Boleto', message: 'Segue', option: '1' },
    })
  ).body.id;
  quickId = (
    await server.request('POST', '/quick-messages', {
      token,
      body: { shortcode: 'anexo', message: 'Segue o anexo' },
    })
  ).body.id;
}, 60_000);

afterAll(async () => {
  await server?.close();
  await rm(dataDir, { recursive: true, force: true });
});

// Whatever a test did, no upload leaves a temp file behind.
afterEach(async () => {
  expect(await tempFiles()).toEqual([]);
});

const attachmentRoutes = () => [
  `/queue/${queueId}/media-upload`,
  `/queue-options/${optionId}/media-upload`,
  `/quick-messages/${quickId}/media-upload`,
];
const uploadRoutes = () => [`/messages/${ticketId}`, ...attachmentRoutes(), '/contacts/upload'];
const fieldOf = (route: string) => (route.startsWith('/messages') ? 'medias' : 'file');

describe('uploads are streamed to disk after authentication', () => {
  it('writes a message attachment to a temp file under DATA_DIR while it arrives', async () => {
    const before = await messageCount(ticketId);
    const upload = openUpload(`/messages/${ticketId}`, a.admin.token, 'medias', 'application/pdf');
    const first = PDF(MB);
    upload.write(first);
    // The signal: the bytes sent so far are already on disk, in a temp file of the request.
    const part = await until(async () => {
      for (const name of await tempFiles()) {
        const info = await stat(path.join(dataDir, 'upload-tmp', name)).catch(() => undefined);
        if (info && info.size >= MB / 2) return name;
      }
      return undefined;
    }, 10_000);
    expect(part).toMatch(/\.part$/);
    upload.write(Buffer.alloc(MB, 0x41));
    upload.end();
    const res = await upload.response;
    expect(res.status).toBe(201);
    expect(await messageCount(ticketId)).toBe(before + 1);
    const file = await fetch(res.body[0].mediaUrl, {
      headers: { authorization: `Bearer ${a.admin.token}` },
    });
    expect((await file.arrayBuffer()).byteLength).toBe(2 * MB);
    expect(await tempFiles()).toEqual([]);
  });

  it('answers 401 on every upload route before reading the body, writing nothing', async () => {
    for (const route of uploadRoutes()) {
      const upload = openUpload(route, undefined, fieldOf(route), 'application/pdf');
      upload.write(PDF(256 * 1024));
      // The body is never finished: an answer can only come from a route that did not wait.
      const res = await within(upload.response, 5_000, `${route} waited for the body`);
      expect(res.status, route).toBe(401);
      upload.req.destroy();
      expect(await tempFiles(), route).toEqual([]);
    }
  });
});

describe('declared type and content', () => {
  it('refuses a file whose bytes are not its declared type, or an unknown type (415)', async () => {
    const cases: [string, Part][] = [
      [`/messages/${ticketId}`, { field: 'medias', bytes: PDF(100), type: 'image/png' }],
      [
        `/messages/${ticketId}`,
        {
          field: 'medias',
          bytes: Buffer.from('4d5a9000', 'hex'),
          type: 'application/x-msdownload',
        },
      ],
      [`/messages/${ticketId}`, { field: 'medias', bytes: '<svg/>', type: 'image/svg+xml' }],
      ...attachmentRoutes().map((r): [string, Part] => [
        r,
        { bytes: 'hello', type: 'application/pdf' },
      ]),
      ...attachmentRoutes().map((r): [string, Part] => [r, { bytes: 'x', type: 'text/html' }]),
      ['/contacts/upload', { bytes: 'PK\x03\x04zip', type: 'text/csv', name: 'c.csv' }],
      ['/contacts/upload', { bytes: 'nome,numero\n', name: 'c.xlsx' }],
      ['/contacts/upload', { bytes: '{"a":1}', type: 'application/json', name: 'c.json' }],
    ];
    const before = await messageCount(ticketId);
    const files = await mediaFiles(a.companyId);
    for (const [route, part] of cases) {
      const res = await send(route, a.admin.token, formOf([part]));
      expect(res.status, `${route} ${part.type}`).toBe(415);
      expect(res.body.error).toBe('ERR_UNSUPPORTED_MEDIA_TYPE');
    }
    expect(await messageCount(ticketId)).toBe(before);
    expect(await mediaFiles(a.companyId)).toEqual(files);
  });

  it.each([
    ['image/png', 'png', '89504e470d0a1a0a00'],
    ['image/jpg', 'jpg', 'ffd8ffe000104a464946'],
    ['application/x-zip-compressed', 'zip', '504b030414000000'],
    ['audio/x-wav', 'wav', '52494646000000005741564566'],
    ['text/plain; charset=utf-8', 'txt', '6f6c61'],
  ])('keeps a %s file whose bytes agree with it, as .%s', async (type, ext, hex) => {
    const res = await send(
      `/queue/${queueId}/media-upload`,
      a.admin.token,
      formOf([{ bytes: Buffer.from(hex, 'hex'), type, name: `arquivo.${ext}` }]),
    );
    expect(res.status).toBe(200);
    expect(res.body.queue.mediaPath).toMatch(new RegExp(`\\.${ext}$`));
  });
});

describe('resends', () => {
  it('a resend of a known clientId with its file keeps one file and counts it once', async () => {
    const form = () =>
      formOf([{ field: 'medias', bytes: PDF(1000), type: 'application/pdf', name: 'r.pdf' }], {
        clientId: `upload-${randomBytes(6).toString('hex')}`,
      });
    const once = form();
    const clientId = once.get('clientId') as string;
    const files = await mediaFiles(a.companyId);
    const usage = await mediaUsage(server.app, a.companyId);
    const first = await send(`/messages/${ticketId}`, a.admin.token, once);
    const again = formOf([{ field: 'medias', bytes: PDF(1000), type: 'application/pdf' }], {
      clientId,
    });
    const second = await send(`/messages/${ticketId}`, a.admin.token, again);
    expect(first.status).toBe(201);
    // The bubble shows the upload's own name, not the stored random one.
    expect(first.body[0].fileName).toBe('r.pdf');
    expect(first.body[0].mediaUrl).not.toContain('r.pdf');
    expect(second.body[0].id).toBe(first.body[0].id);
    expect((await mediaFiles(a.companyId)).length).toBe(files.length + 1);
    expect((await mediaUsage(server.app, a.companyId)).bytes).toBe(usage.bytes + 1000);
  });
});

describe('bad input on upload routes is a 4xx that writes nothing', () => {
  it('an audio recording ffmpeg cannot convert is 400 ERR_INVALID_MEDIA', async () => {
    const before = await messageCount(ticketId);
    const files = await mediaFiles(a.companyId);
    // The webm (EBML) signature, then junk: passes the type check, fails the conversion.
    const junk = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), randomBytes(20_000)]);
    const res = await send(
      `/messages/${ticketId}`,
      a.admin.token,
      formOf([{ field: 'medias', bytes: junk, type: 'audio/webm', name: 'audio.webm' }]),
    );
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_INVALID_MEDIA');
    expect(await messageCount(ticketId)).toBe(before);
    expect(await mediaFiles(a.companyId)).toEqual(files);
  });

  it('a sheet over 5 MB or a file over UPLOAD_MAX_BYTES is 413', async () => {
    const csv = Buffer.alloc(5 * MB + 1, 0x61);
    csv.write('nome,numero\n');
    const contacts = await server.request('GET', '/contacts', { token: a.admin.token });
    const sheet = await send(
      '/contacts/upload',
      a.admin.token,
      formOf([{ bytes: csv, type: 'text/csv', name: 'contatos.csv' }]),
    );
    expect(sheet.status).toBe(413);
    expect(sheet.body.error).toBe('ERR_FILE_TOO_LARGE');
    const after = await server.request('GET', '/contacts', { token: a.admin.token });
    expect(after.body.count).toBe(contacts.body.count);
    for (const route of [`/messages/${ticketId}`, ...attachmentRoutes()]) {
      const big = await send(
        route,
        a.admin.token,
        formOf([{ field: fieldOf(route), bytes: PDF(UPLOAD_MAX + 1), type: 'application/pdf' }]),
      );
      expect(big.status, route).toBe(413);
      expect(big.body.error).toBe('ERR_FILE_TOO_LARGE');
    }
  });

  it('an xlsx that unpacks to more than 64 MB (a zip bomb) is 413 before it is inflated', async () => {
    const bomb = zipOf('xl/worksheets/sheet1.xml', Buffer.alloc(70 * MB, 0x20));
    expect(bomb.length).toBeLessThan(MB);
    const res = await send(
      '/contacts/upload',
      a.admin.token,
      formOf([{ bytes: bomb, type: XLSX, name: 'bomba.xlsx' }]),
    );
    expect(res.status).toBe(413);
    expect(res.body.error).toBe('ERR_PAYLOAD_TOO_LARGE');
  });

  it('junk multipart bodies, too many files and unexpected fields are 4xx on every route', async () => {
    const files = await mediaFiles(a.companyId);
    for (const route of uploadRoutes()) {
      const field = fieldOf(route);
      const junk: [string, FormData | string, Record<string, string>][] = [
        ['garbage', 'garbage', { 'content-type': 'multipart/form-data; boundary=xyz' }],
        ['no boundary', '--x\r\n', { 'content-type': 'multipart/form-data' }],
        [
          'truncated',
          '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n' +
            'Content-Type: application/pdf\r\n\r\n%PDF-1.4 sem fim',
          { 'content-type': 'multipart/form-data; boundary=xyz' },
        ],
        [
          'bad part header',
          '--xyz\r\nsem cabeçalho\r\n\r\nx\r\n--xyz--\r\n',
          { 'content-type': 'multipart/form-data; boundary=xyz' },
        ],
        [
          'too many files',
          formOf(
            Array.from({ length: 11 }, () => ({ field, bytes: PDF(10), type: 'application/pdf' })),
          ),
          {},
        ],
        [
          'unexpected field',
          formOf([{ field: 'outro', bytes: PDF(10), type: 'application/pdf' }]),
          {},
        ],
        ['no file', formOf([], { body: 'só texto' }), {}],
      ];
      for (const [what, body, headers] of junk) {
        const res = await send(route, a.admin.token, body, headers);
        // A multipart message without files is a text message: the only 2xx allowed here.
        if (route.startsWith('/messages') && what === 'no file') {
          expect(res.status, `${route} ${what}`).toBe(201);
          continue;
        }
        expect(res.status, `${route} ${what}: ${JSON.stringify(res.body)}`).toBeGreaterThanOrEqual(
          400,
        );
        expect(res.status, `${route} ${what}`).toBeLessThan(500);
        expect(await tempFiles(), `${route} ${what}`).toEqual([]);
      }
    }
    expect(await mediaFiles(a.companyId)).toEqual(files);
  });
});

describe('storage quota per company', () => {
  it('refuses an upload over the quota with 413 and keeps nothing; a removal frees space', async () => {
    const q = await company();
    const qTicket = await ticketFor(q);
    const first = await send(
      `/messages/${qTicket}`,
      q.admin.token,
      formOf([{ field: 'medias', bytes: PDF(5 * MB), type: 'application/pdf', name: 'a.pdf' }]),
    );
    expect(first.status).toBe(201);
    expect((await mediaUsage(server.app, q.companyId)).bytes).toBe(5 * MB);

    const before = await messageCount(qTicket);
    const files = await mediaFiles(q.companyId);
    // Two files that fit one by one but not together: neither is kept nor sent.
    const over = await send(
      `/messages/${qTicket}`,
      q.admin.token,
      formOf([
        { field: 'medias', bytes: PDF(2 * MB), type: 'application/pdf', name: 'b.pdf' },
        { field: 'medias', bytes: PDF(2 * MB), type: 'application/pdf', name: 'c.pdf' },
      ]),
    );
    expect(over.status).toBe(413);
    expect(over.body.error).toBe('ERR_STORAGE_QUOTA_EXCEEDED');
    expect(await messageCount(qTicket)).toBe(before);
    expect(await mediaFiles(q.companyId)).toEqual(files);

    const queue = await server.request('POST', '/queue', {
      token: q.admin.token,
      body: { name: 'Cota', color: '#654321' },
    });
    const route = `/queue/${queue.body.id}/media-upload`;
    const attach = (size: number) =>
      send(route, q.admin.token, formOf([{ bytes: PDF(size), type: 'application/pdf' }]));
    expect((await attach(4 * MB)).body.error).toBe('ERR_STORAGE_QUOTA_EXCEEDED');
    expect((await attach(2 * MB)).status).toBe(200);
    expect((await mediaUsage(server.app, q.companyId)).bytes).toBe(7 * MB);
    const removed = await server.request('DELETE', route, { token: q.admin.token });
    expect(removed.status).toBe(200);
    expect((await mediaUsage(server.app, q.companyId)).bytes).toBe(5 * MB);
    expect((await attach(3 * MB)).status).toBe(200);

    // Another company's quota is its own.
    expect((await mediaUsage(server.app, a.companyId)).bytes).toBeLessThan(QUOTA_MB * MB);
  });

  it('keeps inbound media over the quota but flags the company', async () => {
    const q = await company();
    const usage = await mediaUsage(server.app, q.companyId);
    expect(usage.overQuotaAt).toBeNull();
    const first = await storeMedia(server.app, q.companyId, PDF(5 * MB), 'application/pdf');
    expect((await mediaUsage(server.app, q.companyId)).overQuotaAt).toBeNull();
    const second = await storeMedia(server.app, q.companyId, PDF(4 * MB), 'application/pdf');
    expect((await stat(second.path)).size).toBe(4 * MB);
    const flagged = await mediaUsage(server.app, q.companyId);
    expect(flagged.bytes).toBe(9 * MB);
    expect(flagged.overQuotaAt).toBeInstanceOf(Date);
    expect((await stat(first.path)).isFile()).toBe(true);
  });

  it('counts files a company stored before the quota existed', async () => {
    const q = await createCompanyWithAdmin(server);
    const dir = path.join(dataDir, 'media', String(q.companyId));
    await storeMedia(server.app, q.companyId, PDF(MB), 'application/pdf');
    // Forget the row, as before the migration: the next count reads the folder.
    await server.app.ds.query('DELETE FROM media_usage WHERE "companyId" = $1', [q.companyId]);
    expect((await readdir(dir)).length).toBe(1);
    expect((await mediaUsage(server.app, q.companyId)).bytes).toBe(MB);
  });
});

describe('CSV export', () => {
  it.each([
    ['=1+2', "'=1+2"],
    ['+5511', "'+5511"],
    ['-2+3', "'-2+3"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tx', "'\tx"],
    ['\rx', "'\rx"],
    ['Ana = Maria', 'Ana = Maria'],
    ['', ''],
  ])('a cell %j is written as %j', (input, output) => {
    expect(spreadsheetText(input)).toBe(output);
  });

  it('neutralises formula cells in the contacts export', async () => {
    const token = a.admin.token;
    const names = ['=HYPERLINK("http://x")', '+cmd', '-2+3', '@SUM(A1)'];
    for (const [i, name] of names.entries()) {
      const res = await server.request('POST', '/contacts', {
        token,
        body: { name, number: `55119777700${i}0` },
      });
      expect(res.status, name).toBe(201);
    }
    const exported = await fetch(`${server.url}/contacts/export`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const text = await exported.text();
    expect(text).toContain(`"'=HYPERLINK(""http://x"")","55119777700`);
    expect(text).toContain(`"'+cmd",`);
    expect(text).toContain(`"'-2+3",`);
    expect(text).toContain(`"'@SUM(A1)",`);
    expect(text).not.toMatch(/(^|\r\n)"[=+\-@]/);
  });
});
