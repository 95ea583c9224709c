import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../harness.js';
import { addAgent, tenant, type Tenant } from './fixtures.js';

let server: TestServer;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  server = await startTestServer();
  a = await tenant(server);
  b = await tenant(server);
});
afterAll(() => server?.close());

describe('contacts', () => {
  it('creates, answers alreadyExists for a known number, lists, searches, updates and deletes', async () => {
    const token = a.admin.token;
    const created = await server.request('POST', '/contacts', {
      token,
      body: {
        name: 'Maria Souza',
        number: '+55 (11) 98888-7777',
        email: 'maria@x.com',
        extraInfo: [{ name: 'CPF', value: '123' }],
      },
    });
    expect(created.status).toBe(201);
    expect(created.body.number).toBe('5511988887777');
    expect(created.body.extraInfo).toEqual([
      expect.objectContaining({ name: 'CPF', value: '123' }),
    ]);

    const again = await server.request('POST', '/contacts', {
      token,
      body: { name: 'Outra Maria', number: '5511988887777' },
    });
    expect(again.body).toMatchObject({
      alreadyExists: true,
      existingContact: { id: created.body.id },
    });

    const list = await server.request('GET', '/contacts?searchParam=souza&pageNumber=1', { token });
    expect(list.body).toMatchObject({ count: 1, hasMore: false });
    expect(list.body.contacts[0].id).toBe(created.body.id);
    const byNumber = await server.request('GET', '/contacts?searchParam=8888', { token });
    expect(byNumber.body.count).toBe(1);

    const other = await server.request('POST', '/contacts', {
      token,
      body: { name: 'João', number: '5511977776666' },
    });
    const dup = await server.request('PUT', `/contacts/${other.body.id}`, {
      token,
      body: { number: '5511988887777' },
    });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toBe('ERR_DUPLICATED_CONTACT');

    const upd = await server.request('PUT', `/contacts/${created.body.id}`, {
      token,
      body: { name: 'Maria S.', extraInfo: [] },
    });
    expect(upd.body).toMatchObject({ name: 'Maria S.', extraInfo: [] });

    const agent = await addAgent(server, a.admin);
    const forbidden = await server.request('DELETE', `/contacts/${other.body.id}`, {
      token: agent.token,
    });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error).toBe('ERR_NO_PERMISSION');
    expect((await server.request('DELETE', `/contacts/${other.body.id}`, { token })).status).toBe(
      200,
    );
    expect((await server.request('GET', `/contacts/${other.body.id}`, { token })).body.error).toBe(
      'ERR_NO_CONTACT_FOUND',
    );
  });

  it('validates core §5 rules and writes nothing on bad input', async () => {
    const token = a.admin.token;
    const before = await server.request('GET', '/contacts', { token });
    for (const body of [
      { name: 'M', number: '5511999990000' },
      { name: 'x'.repeat(51), number: '5511999990000' },
      { name: 'Maria', number: '1234567' },
      { name: 'Maria', number: '5511999990000', email: 'not-an-email' },
      { number: '5511999990000' },
    ]) {
      const res = await server.request('POST', '/contacts', { token, body });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
    }
    const tooShort = await server.request('POST', '/contacts', {
      token,
      body: { name: 'M', number: '5511999990000' },
    });
    expect(tooShort.body.details[0].message).toBe('Too Short!');
    const after = await server.request('GET', '/contacts', { token });
    expect(after.body.count).toBe(before.body.count);
  });

  it('uploads csv and xlsx keeping valid rows and reporting the others; exports csv', async () => {
    const token = a.admin.token;
    const csv =
      'nome;numero;email\nAna Lima;5511911112222;ana@x.com\nB;5511911113333;\nCarlos;5511911112222;\n"Davi, o Rei";5511911114444;\n';
    const form = new FormData();
    form.append('file', new Blob([csv], { type: 'text/csv' }), 'contatos.csv');
    const res = await fetch(`${server.url}/contacts/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    const report = (await res.json()) as any;
    expect(res.status).toBe(200);
    expect(report.created).toBe(2);
    expect(report.errors).toEqual([
      expect.objectContaining({ row: 2, error: 'ERR_VALIDATION' }),
      expect.objectContaining({ row: 3, error: 'ERR_DUPLICATED_CONTACT' }),
    ]);

    const wb = new ExcelJS.Workbook();
    const sheet = wb.addWorksheet('Contatos');
    sheet.addRow(['Name', 'Number']);
    sheet.addRow(['Eva Prado', '5511955556666']);
    sheet.addRow(['Fabio', 'abc']);
    const xlsx = Buffer.from(await wb.xlsx.writeBuffer());
    const form2 = new FormData();
    form2.append('file', new Blob([xlsx]), 'contatos.xlsx');
    const res2 = await fetch(`${server.url}/contacts/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form2,
    });
    const report2 = (await res2.json()) as any;
    expect(report2.created).toBe(1);
    expect(report2.errors).toHaveLength(1);

    const bad = new FormData();
    bad.append('file', new Blob([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0, 0])]), 'old.xls');
    const res3 = await fetch(`${server.url}/contacts/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: bad,
    });
    expect(res3.status).toBe(400);
    expect(((await res3.json()) as any).error).toBe('ERR_IMPORT_FILE');

    const exported = await fetch(`${server.url}/contacts/export`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const text = await exported.text();
    expect(exported.headers.get('content-type')).toContain('text/csv');
    expect(text).toContain('"Davi, o Rei","5511911114444"');

    const imported = await server.request('POST', '/contacts/import', {
      token,
      body: {
        contacts: [
          { name: 'Gil Souto', number: '5511900001111' },
          { name: 'H', number: '1' },
        ],
      },
    });
    expect(imported.body.created).toBe(1);
    expect(imported.body.errors).toHaveLength(1);
  });

  it('isolates tenants: company B cannot read, change or delete A contacts', async () => {
    const mine = await server.request('POST', '/contacts', {
      token: a.admin.token,
      body: { name: 'Segredo', number: '5511933334444' },
    });
    const id = mine.body.id;
    const tb = b.admin.token;
    expect((await server.request('GET', `/contacts/${id}`, { token: tb })).status).toBe(404);
    expect(
      (await server.request('PUT', `/contacts/${id}`, { token: tb, body: { name: 'Hack' } }))
        .status,
    ).toBe(404);
    expect((await server.request('DELETE', `/contacts/${id}`, { token: tb })).status).toBe(404);
    const list = await server.request('GET', '/contacts?searchParam=Segredo', { token: tb });
    expect(list.body.count).toBe(0);
    const all = await server.request('GET', '/contacts/list', { token: tb });
    expect(all.body.find((c: { id: number }) => c.id === id)).toBeUndefined();
    const exported = await fetch(`${server.url}/contacts/export`, {
      headers: { authorization: `Bearer ${tb}` },
    });
    expect(await exported.text()).not.toContain('Segredo');
    // B may create the same number: numbers are unique per company only.
    const same = await server.request('POST', '/contacts', {
      token: tb,
      body: { name: 'Segredo B', number: '5511933334444' },
    });
    expect(same.status).toBe(201);
    expect(
      (await server.request('GET', `/contacts/${id}`, { token: a.admin.token })).body.name,
    ).toBe('Segredo');
  });
});
