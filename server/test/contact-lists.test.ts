// Contact lists, their items, spreadsheet imports and file lists (issue 16), on the real
// Postgres and Redis, with the simulator answering the number checks.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as XLSX from '@e965/xlsx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompanyWithAdmin } from './fixtures.js';
import { startTestServer, type Session, type TestServer } from './harness.js';
import { SimulatorClient } from './simulator-client.js';
import { eventually, listen, type Listening } from './socket-client.js';
import { addAgent, simConnection, until } from './ticketing/fixtures.js';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/contact-lists');

let server: TestServer;
let a: { companyId: number; admin: Session };
let b: { companyId: number; admin: Session };

beforeAll(async () => {
  server = await startTestServer({ SIMULATOR: 'on' });
  a = await createCompanyWithAdmin(server);
  b = await createCompanyWithAdmin(server);
});
afterAll(() => server?.close());

const newList = async (token: string, name = `Lista ${Date.now()}`) => {
  const res = await server.request('POST', '/contact-lists', { token, body: { name } });
  expect(res.status).toBe(201);
  return res.body as { id: number; name: string; contactsCount: number };
};

async function upload(
  token: string,
  listId: number,
  bytes: Buffer | string,
  fileName: string,
  type = '',
) {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type }), fileName);
  const res = await fetch(`${server.url}/contact-lists/${listId}/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as any };
}

/** Waits for the import to end (the worker role runs the durable job) and answers it. */
const finished = (token: string, listId: number, importId: number) =>
  until(async () => {
    const res = await server.request('GET', `/contact-lists/${listId}/imports`, { token });
    const row = (res.body as any[]).find((i) => i.id === importId);
    return row && (row.status === 'done' || row.status === 'failed') ? row : undefined;
  }, 30_000);

const itemsOf = async (token: string, listId: number) => {
  const res = await server.request('GET', `/contact-list-items?contactListId=${listId}`, {
    token,
  });
  expect(res.status).toBe(200);
  return res.body.contacts as any[];
};

describe('contact lists and items', () => {
  it('creates, pages, renames and counts; names follow the 2 to 50 rule', async () => {
    const token = a.admin.token;
    const list = await newList(token, 'Clientes VIP');
    expect(list.contactsCount).toBe(0);
    for (const [name, message] of [
      ['A', 'Too Short!'],
      ['x'.repeat(51), 'Too Long!'],
    ]) {
      const bad = await server.request('POST', '/contact-lists', { token, body: { name } });
      expect(bad.status).toBe(400);
      expect(JSON.stringify(bad.body.details)).toContain(message);
    }
    const renamed = await server.request('PUT', `/contact-lists/${list.id}`, {
      token,
      body: { name: 'Clientes Ouro' },
    });
    expect(renamed.body.name).toBe('Clientes Ouro');
    const page = await server.request('GET', '/contact-lists?searchParam=ouro&pageNumber=1', {
      token,
    });
    expect(page.body.records.map((r: any) => r.id)).toEqual([list.id]);
    expect(page.body.hasMore).toBe(false);
    const all = await server.request('GET', '/contact-lists/list?companyId=999', { token });
    expect(all.body.map((r: any) => r.id)).toContain(list.id);
  });

  it('keeps one item per person: 9th-digit variants are one number', async () => {
    const token = a.admin.token;
    const list = await newList(token);
    const add = (number: string, name = 'Maria Souza') =>
      server.request('POST', '/contact-list-items', {
        token,
        body: { name, number, email: '', companyId: 999, contactListId: list.id },
      });
    const first = await add('(11) 8765-4321');
    expect(first.status).toBe(201);
    expect(first.body.number).toBe('5511987654321');
    expect(first.body.isWhatsappValid).toBeNull();
    const again = await add('+55 11 98765-4321');
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('ERR_CONTACT_LIST_ITEM_EXISTS');
    const bad = await add('98765-4321');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('ERR_CONTACT_LIST_NUMBER');
    const badEmail = await server.request('POST', '/contact-list-items', {
      token,
      body: { name: 'Ana', number: '11999990000', email: 'x@', contactListId: list.id },
    });
    expect(badEmail.status).toBe(400);
    expect(JSON.stringify(badEmail.body.details)).toContain('Invalid email');
    const edited = await server.request('PUT', `/contact-list-items/${first.body.id}`, {
      token,
      body: { name: 'Maria S.', email: 'MARIA@EX.COM' },
    });
    expect(edited.body).toMatchObject({ name: 'Maria S.', email: 'maria@ex.com' });
    const shown = await server.request('GET', `/contact-lists/${list.id}`, { token });
    expect(shown.body.contactsCount).toBe(1);
    const search = await server.request(
      'GET',
      `/contact-list-items?contactListId=${list.id}&searchParam=98765`,
      { token },
    );
    expect(search.body.contacts).toHaveLength(1);
  });

  it("deletes only with 'contacts-page:deleteContact' (an agent may not)", async () => {
    const list = await newList(a.admin.token);
    const item = await server.request('POST', '/contact-list-items', {
      token: a.admin.token,
      body: { name: 'Paulo', number: '11955554444', contactListId: list.id },
    });
    const agent = await addAgent(server, a.admin);
    const refused = await server.request('DELETE', `/contact-list-items/${item.body.id}`, {
      token: agent.token,
    });
    expect(refused.status).toBe(403);
    expect(
      (await server.request('DELETE', `/contact-lists/${list.id}`, { token: agent.token })).status,
    ).toBe(403);
    expect(
      (await server.request('GET', `/contact-list-items/${item.body.id}`, { token: agent.token }))
        .status,
    ).toBe(200);
    const removed = await server.request('DELETE', `/contact-list-items/${item.body.id}`, {
      token: a.admin.token,
    });
    expect(removed.status).toBe(200);
    expect(
      (await server.request('DELETE', `/contact-lists/${list.id}`, { token: a.admin.token }))
        .status,
    ).toBe(200);
  });

  it("serves the sample spreadsheet 'planilha.xlsx', which imports as it is", async () => {
    const res = await fetch(`${server.url}/contact-lists/sample`, {
      headers: { authorization: `Bearer ${a.admin.token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain('planilha.xlsx');
    const bytes = Buffer.from(await res.arrayBuffer());
    const list = await newList(a.admin.token);
    const started = await upload(a.admin.token, list.id, bytes, 'planilha.xlsx');
    expect(started.status).toBe(202);
    const done = await finished(a.admin.token, list.id, started.body.id);
    expect(done).toMatchObject({ status: 'done', total: 2, created: 2, invalid: 0 });
  });
});

describe('spreadsheet import', () => {
  // Each fixture holds the same 9 rows: accents in names and headers ('Número', 'E-mail'), a
  // 9th-digit variant and a same-number repeat (2 folded), a short number, a blank number, a bad
  // e-mail and a formula-looking name without a number (4 refused), and 3 people.
  it.each([
    ['contatos.xlsx', ''],
    ['contatos.xls', 'application/vnd.ms-excel'],
    ['contatos.csv', 'text/csv'],
  ])('imports %s with progress, folding duplicates and reporting bad rows', async (file, type) => {
    const token = a.admin.token;
    const list = await newList(token);
    const socket: Listening = await listen(server.url, token);
    try {
      const bytes = await readFile(path.join(FIXTURES, file));
      const started = await upload(token, list.id, bytes, file, type);
      expect(started.status).toBe(202);
      expect(started.body).toMatchObject({ status: 'queued', fileName: file });
      const done = await finished(token, list.id, started.body.id);
      expect(done).toMatchObject({
        status: 'done',
        total: 9,
        processed: 3,
        created: 3,
        updated: 0,
        duplicates: 2,
        invalid: 4,
        error: null,
      });
      const items = await itemsOf(token, list.id);
      expect(
        items.map((i) => [i.name, i.number, i.email]).sort((x, y) => x[1].localeCompare(y[1])),
      ).toEqual(
        [
          ['Zé', '5547988887777', 'ze@ex.com.br'],
          ['José Araújo', '5511987654321', 'jose@exemplo.com'],
          ['Conceição', '5521999990000', ''],
        ].sort((x, y) => x[1]!.localeCompare(y[1]!)),
      );

      // Progress reached the page as events of the company.
      await eventually(() =>
        socket.received.some(
          (e) =>
            e.event === `company-${a.companyId}-contactListImport` &&
            (e.payload as any).record.status === 'done',
        ),
      );
      expect(
        socket.received.some((e) => e.event === `company-${a.companyId}-ContactListItem`),
      ).toBe(true);
      expect(socket.invalid).toEqual([]);

      // The per-row report: sheet row numbers, reasons, formulas neutralised.
      const report = await fetch(
        `${server.url}/contact-lists/${list.id}/imports/${started.body.id}/errors`,
        { headers: { authorization: `Bearer ${token}` } },
      );
      expect(report.headers.get('content-type')).toContain('text/csv');
      const text = await report.text();
      const lines = text
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n');
      expect(lines).toHaveLength(7);
      expect(lines[1]).toBe(
        '"3";"José A.";"11 98765-4321";"Número repetido na planilha (mantida a linha 2)"',
      );
      expect(text).toContain('"5";"Número curto";"123";"Número inválido (informe DDD e número)"');
      expect(text).toContain('"6";"Sem número";"";"Número em branco"');
      expect(text).toContain(`"8";"Márcia";"'+55 31 3333-4444";"E-mail inválido"`);
      expect(text).toContain(`"'=HYPERLINK(""http://x"")"`);
    } finally {
      socket.close();
    }
  });

  it('folds rows into the items the list already has, refreshing name and e-mail', async () => {
    const token = a.admin.token;
    const list = await newList(token);
    await server.request('POST', '/contact-list-items', {
      token,
      body: { name: 'Antigo Nome', number: '5521999990000', contactListId: list.id },
    });
    const bytes = await readFile(path.join(FIXTURES, 'contatos.csv'));
    const started = await upload(token, list.id, bytes, 'contatos.csv', 'text/csv');
    const done = await finished(token, list.id, started.body.id);
    expect(done).toMatchObject({ created: 2, updated: 1 });
    const items = await itemsOf(token, list.id);
    expect(items).toHaveLength(3);
    expect(items.find((i) => i.number === '5521999990000').name).toBe('Conceição');
  });

  it('refuses a file that is not what it claims, before any job', async () => {
    const list = await newList(a.admin.token);
    const fake = await upload(a.admin.token, list.id, 'nome;numero\nAna;11999990000\n', 'x.xlsx');
    expect(fake.status).toBe(415);
    expect(fake.body.error).toBe('ERR_IMPORT_MISMATCH');
    const fakeXls = await upload(a.admin.token, list.id, 'PK\u0003\u0004junk', 'y.xls');
    expect(fakeXls.body.error).toBe('ERR_IMPORT_MISMATCH');
    const png = await upload(a.admin.token, list.id, 'x', 'foto.png', 'image/png');
    expect(png.status).toBe(400);
    expect(png.body.error).toBe('ERR_IMPORT_FILE');
    const imports = await server.request('GET', `/contact-lists/${list.id}/imports`, {
      token: a.admin.token,
    });
    expect(imports.body).toEqual([]);
  });

  it.each([
    [
      'a prototype-pollution header',
      'nome;__proto__;numero\nAna;x;11999990000\n',
      'ERR_IMPORT_UNSAFE',
    ],
    ['no number column', 'nome;email\nAna;a@b.com\n', 'ERR_IMPORT_HEADER'],
    [
      'more rows than the limit',
      `numero\n${Array.from({ length: 50_001 }, (_, i) => 11900000000 + i).join('\n')}\n`,
      'ERR_IMPORT_TOO_MANY_ROWS',
    ],
  ])('fails an import with %s, writing no item', async (_what, csv, error) => {
    const list = await newList(a.admin.token);
    const started = await upload(a.admin.token, list.id, csv, 'lista.csv', 'text/csv');
    expect(started.status).toBe(202);
    const done = await finished(a.admin.token, list.id, started.body.id);
    expect(done).toMatchObject({ status: 'failed', error, created: 0 });
    expect(await itemsOf(a.admin.token, list.id)).toEqual([]);
  });

  it('fails an xlsx that does not unzip, and a crafted zip with a prototype sheet name', async () => {
    const list = await newList(a.admin.token);
    const broken = await upload(
      a.admin.token,
      list.id,
      'PK\u0003\u0004' + 'x'.repeat(200),
      'a.xlsx',
    );
    expect(broken.status).toBe(202);
    expect(await finished(a.admin.token, list.id, broken.body.id)).toMatchObject({
      status: 'failed',
      error: 'ERR_IMPORT_FILE',
    });
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(
      book,
      XLSX.utils.aoa_to_sheet([
        ['constructor', 'numero'],
        ['x', '11999990000'],
      ]),
      '__proto__',
    );
    const crafted = XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
    const second = await upload(a.admin.token, list.id, crafted, 'b.xlsx');
    expect(await finished(a.admin.token, list.id, second.body.id)).toMatchObject({
      status: 'failed',
      error: 'ERR_IMPORT_UNSAFE',
    });
    expect(({} as Record<string, unknown>).numero).toBeUndefined();
  });

  it('fills isWhatsappValid through the connection, using the cached answers', async () => {
    const c = await createCompanyWithAdmin(server);
    const sim = new SimulatorClient(server.url, c.admin.token);
    await simConnection(server, c.admin, sim);
    const list = await newList(c.admin.token);
    // The number check's cache already knows this one is not on WhatsApp.
    await server.app.redis.set(`${server.app.prefix}:wa:number:${c.companyId}:5521999990000`, '0');
    const bytes = await readFile(path.join(FIXTURES, 'contatos.xlsx'));
    const started = await upload(c.admin.token, list.id, bytes, 'contatos.xlsx');
    await finished(c.admin.token, list.id, started.body.id);
    const items = await until(async () => {
      const rows = await itemsOf(c.admin.token, list.id);
      return rows.every((r) => r.isWhatsappValid !== null) ? rows : undefined;
    }, 30_000);
    expect(Object.fromEntries(items.map((i) => [i.number, i.isWhatsappValid]))).toEqual({
      '5511987654321': true,
      '5521999990000': false,
      '5547988887777': true,
    });
  });
});

describe('file lists', () => {
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
    'base64',
  );
  const uploadFiles = async (token: string, id: number, fields: Record<string, string>) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    form.append('files', new Blob([png], { type: 'image/png' }), 'foto 1.png');
    const res = await fetch(`${server.url}/files/uploadList/${id}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    return { status: res.status, body: (await res.json()) as any };
  };

  it("needs a name of 3 or more ('nome muito curto') and a message", async () => {
    const short = await server.request('POST', '/files', {
      token: a.admin.token,
      body: { name: 'ab', message: 'oi' },
    });
    expect(short.status).toBe(400);
    expect(JSON.stringify(short.body.details)).toContain('nome muito curto');
    const noMessage = await server.request('POST', '/files', {
      token: a.admin.token,
      body: { name: 'Catálogo', message: '' },
    });
    expect(noMessage.status).toBe(400);
  });

  it('keeps options and their files, served only through the authenticated media route', async () => {
    const token = a.admin.token;
    const made = await server.request('POST', '/files', {
      token,
      body: { name: 'Catálogo', message: 'Veja nosso catálogo', options: [{ name: 'Capa' }] },
    });
    expect(made.status).toBe(201);
    const option = made.body.options[0];
    expect(option).toMatchObject({ name: 'Capa', path: null, mediaUrl: null });
    const uploaded = await uploadFiles(token, made.body.id, {
      fileId: String(made.body.id),
      typeArch: 'fileList',
      id: String(option.id),
      mediaType: 'image',
      name: 'Capa',
    });
    expect(uploaded.status).toBe(200);
    const stored = uploaded.body.options[0];
    expect(stored.mediaUrl).toMatch(/^\/media\/[A-Za-z0-9_-]+\.png$/);
    expect(stored.mediaType).toBe('image');
    const own = await fetch(server.url + stored.mediaUrl, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(own.status).toBe(200);
    expect((await fetch(server.url + stored.mediaUrl)).status).toBe(401);
    const other = await fetch(server.url + stored.mediaUrl, {
      headers: { authorization: `Bearer ${b.admin.token}` },
    });
    expect(other.status).toBe(404);

    // A file that is not what it claims is refused by the checked upload path.
    const form = new FormData();
    form.append('files', new Blob(['not a png'], { type: 'image/png' }), 'x.png');
    const fake = await fetch(`${server.url}/files/uploadList/${made.body.id}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(fake.status).toBe(415);

    // An update without the option removes it and its file.
    const updated = await server.request('PUT', `/files/${made.body.id}`, {
      token,
      body: { name: 'Catálogo 2', message: 'Novo', options: [{ name: 'Preços' }] },
    });
    expect(updated.body.options.map((o: any) => o.name)).toEqual(['Preços']);
    const gone = await fetch(server.url + stored.mediaUrl, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(gone.status).toBe(404);
    const page = await server.request('GET', '/files?searchParam=cat&pageNumber=1', { token });
    expect(page.body.files.map((f: any) => f.id)).toContain(made.body.id);
    const plain = await server.request('GET', '/files', { token });
    expect(plain.body.files.length).toBeGreaterThan(0);
    expect((await server.request('DELETE', `/files/${made.body.id}`, { token })).status).toBe(200);
  });
});

describe('tenant isolation', () => {
  it("another company can neither read, change, fill nor hear about a company's lists", async () => {
    const listen_b = await listen(server.url, b.admin.token);
    try {
      const list = await newList(a.admin.token, 'Lista da A');
      const item = await server.request('POST', '/contact-list-items', {
        token: a.admin.token,
        body: { name: 'Cliente A', number: '11977776666', contactListId: list.id },
      });
      const started = await upload(
        a.admin.token,
        list.id,
        await readFile(path.join(FIXTURES, 'contatos.csv')),
        'contatos.csv',
        'text/csv',
      );
      await finished(a.admin.token, list.id, started.body.id);
      const fileList = await server.request('POST', '/files', {
        token: a.admin.token,
        body: { name: 'Arquivos A', message: 'oi', options: [{ name: 'x' }] },
      });
      const tb = b.admin.token;
      const cases: [string, string, unknown?][] = [
        ['GET', `/contact-lists/${list.id}`],
        ['PUT', `/contact-lists/${list.id}`, { name: 'Roubada' }],
        ['DELETE', `/contact-lists/${list.id}`],
        ['GET', `/contact-lists/${list.id}/imports`],
        ['GET', `/contact-lists/${list.id}/imports/${started.body.id}/errors`],
        ['GET', `/contact-list-items?contactListId=${list.id}`],
        ['GET', `/contact-list-items/${item.body.id}`],
        ['PUT', `/contact-list-items/${item.body.id}`, { name: 'Roubado' }],
        ['DELETE', `/contact-list-items/${item.body.id}`],
        [
          'POST',
          '/contact-list-items',
          { name: 'Intruso', number: '11966665555', contactListId: list.id },
        ],
        ['GET', `/files/${fileList.body.id}`],
        ['PUT', `/files/${fileList.body.id}`, { name: 'Roubada', message: 'x' }],
        ['DELETE', `/files/${fileList.body.id}`],
      ];
      for (const [method, url, body] of cases) {
        const res = await server.request(method, url, { token: tb, body });
        expect([method, url, res.status]).toEqual([method, url, 404]);
      }
      const intoA = await upload(tb, list.id, 'numero\n11999990000\n', 'x.csv', 'text/csv');
      expect(intoA.status).toBe(404);
      const filesIntoA = new FormData();
      filesIntoA.append('files', new Blob(['x'], { type: 'image/png' }), 'x.png');
      const r = await fetch(`${server.url}/files/uploadList/${fileList.body.id}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tb}` },
        body: filesIntoA,
      });
      expect(r.status).toBe(404);
      const bLists = await server.request('GET', '/contact-lists/list', { token: tb });
      expect(bLists.body.map((l: any) => l.id)).not.toContain(list.id);
      const bFiles = await server.request('GET', '/files', { token: tb });
      expect(bFiles.body.files.map((f: any) => f.id)).not.toContain(fileList.body.id);
      // Nothing changed for A, and B's socket heard nothing of A.
      expect((await itemsOf(a.admin.token, list.id)).length).toBe(4);
      expect(
        (await server.request('GET', `/files/${fileList.body.id}`, { token: a.admin.token })).body
          .name,
      ).toBe('Arquivos A');
      expect(listen_b.received.filter((e) => e.event.includes(`company-${a.companyId}-`))).toEqual(
        [],
      );
    } finally {
      listen_b.close();
    }
  });
});
