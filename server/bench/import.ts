// (d) A 10,000-row contact-list import (issue 16): one company, one list, a sheet uploaded to
// POST /contact-lists/:id/upload; timed from the upload until the import job reports done (the
// sheet read in a worker thread, then the rows inserted in batches by the durable job).
import * as XLSX from '@e965/xlsx';
import { call } from './http.js';

export interface ImportResult {
  kind: 'xlsx' | 'csv';
  rows: number;
  created: number;
  /** Upload answered (202): the file is received, checked and the job queued. */
  acceptedMs: number;
  /** From the start of the upload to the job's `done`. */
  doneMs: number;
}

function sheet(rows: number, kind: 'xlsx' | 'csv', offset: number): Buffer {
  const table: (string | number)[][] = [['Nome', 'Número', 'E-mail']];
  for (let i = 0; i < rows; i++) {
    table.push([`Cliente ${i}`, 11_900_000_000 + offset + i, `cliente${i}@exemplo.com.br`]);
  }
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(table), 'Contatos');
  return XLSX.write(book, { type: 'buffer', bookType: kind === 'csv' ? 'csv' : 'xlsx' }) as Buffer;
}

export async function importBench(
  base: string,
  superUser: { email: string; password: string },
  rows = 10_000,
): Promise<ImportResult[]> {
  const root = (await call(base, 'POST', '/auth/login', undefined, superUser)).body.token;
  const stamp = Date.now();
  const plan = await call(base, 'POST', '/plans', root, {
    name: `Bench import ${stamp}`,
    users: 5,
    connections: 1,
    queues: 1,
    value: 1,
  });
  const email = `bench-import${stamp}@bench.test`;
  await call(base, 'POST', '/companies', root, {
    name: `Bench import ${stamp}`,
    email,
    planId: plan.body.id,
    password: 'Senha123',
    dueDate: '2099-12-31',
  });
  const token = (
    await call(base, 'POST', '/auth/login', undefined, { email, password: 'Senha123' })
  ).body.token as string;
  const results: ImportResult[] = [];
  for (const [n, kind] of (['xlsx', 'csv'] as const).entries()) {
    const list = await call(base, 'POST', '/contact-lists', token, { name: `Bench ${kind}` });
    const bytes = sheet(rows, kind, n * rows);
    const form = new FormData();
    form.append('file', new Blob([bytes]), `contatos.${kind}`);
    const t0 = performance.now();
    const res = await fetch(`${base}/contact-lists/${list.body.id}/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    const started = (await res.json()) as { id: number };
    if (res.status !== 202) throw new Error(`upload: ${res.status} ${JSON.stringify(started)}`);
    const acceptedMs = performance.now() - t0;
    for (;;) {
      const imports = await call(base, 'GET', `/contact-lists/${list.body.id}/imports`, token);
      const job = (imports.body as { id: number; status: string; created: number }[]).find(
        (i) => i.id === started.id,
      );
      if (job?.status === 'failed') throw new Error(`import failed: ${JSON.stringify(job)}`);
      if (job?.status === 'done') {
        results.push({
          kind,
          rows,
          created: job.created,
          acceptedMs,
          doneMs: performance.now() - t0,
        });
        break;
      }
      if (performance.now() - t0 > 300_000) throw new Error('import did not finish in 5 min');
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return results;
}
