/**
 * Desktop cache benchmarks (issue #7): first page of a 5,000-message ticket, applying 10,000
 * feed changes, full-text search over 200,000 messages. Runs on a cache file on disk (WAL), as
 * the app does. Writes its section of BENCHMARKS.md (between its markers; other sections stay).
 *   npx tsx desktop/bench/cache-bench.ts [--no-write]     (BENCH_FILE=<path> writes elsewhere)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, totalmem, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { upsertTicket } from '../src/main/cache/entities.js';
import { messagesPage, upsertMessage } from '../src/main/cache/messages.js';
import { openCache } from '../src/main/cache/open.js';
import { searchMessages } from '../src/main/cache/search.js';
import { SqliteStore } from '../src/main/cache/sqlite-store.js';
import { SyncEngine } from '../src/main/core/sync-engine.js';
import { systemClock } from '../src/main/core/types.js';
import { writeSection } from './support.js';

const TOTAL_MESSAGES = 200_000;
const BIG_TICKET_MESSAGES = 5_000;
const TICKETS = 400;
const CHANGES = 10_000;
const TARGETS = { firstPageMs: 20, applyMs: 1000, ftsMs: 50 };

let seed = 42;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const WORDS = (
  'olá bom dia boa tarde noite obrigado obrigada pedido entrega prazo boleto pagamento pix ' +
  'cartão nota fiscal produto troca devolução garantia endereço cadastro senha acesso conta ' +
  'atendimento suporte problema erro sistema aplicativo site loja compra valor desconto frete ' +
  'rastreio código cancelamento reembolso agendamento horário consulta médico exame resultado ' +
  'orçamento proposta contrato assinatura plano mensalidade fatura vencimento atraso multa juros'
).split(' ');
// A long tail of rarer words, so that searches hit both common and rare terms.
for (let i = 0; i < 3000; i++) WORDS.push(`termo${i.toString(36)}`);
const zipfWord = () => WORDS[Math.floor(WORDS.length * random() ** 3)]!;
const sentence = () => Array.from({ length: 4 + Math.floor(random() * 14) }, zipfWord).join(' ');
const iso = (n: number) => new Date(1_700_000_000_000 + n * 1000).toISOString();

const stats = (samples: number[]) => {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
  return { p50: at(0.5), p99: at(0.99), max: s[s.length - 1]! };
};
const ms = (n: number) => n.toFixed(2);

function seedCache(file: string) {
  const db = openCache(file);
  const started = performance.now();
  db.transaction(() => {
    for (let t = 1; t <= TICKETS; t++) {
      upsertTicket(db, { id: t, status: t % 3 ? 'open' : 'closed', userId: 1, updatedAt: iso(t) });
    }
    let id = 0;
    for (let i = 0; i < BIG_TICKET_MESSAGES; i++) {
      upsertMessage(db, {
        id: ++id,
        ticketId: 1,
        body: sentence(),
        fromMe: i % 2 === 0,
        createdAt: iso(id),
      });
    }
    while (id < TOTAL_MESSAGES) {
      const ticketId = 2 + Math.floor(random() * (TICKETS - 1));
      upsertMessage(db, {
        id: ++id,
        ticketId,
        body: sentence(),
        fromMe: random() < 0.5,
        createdAt: iso(id),
      });
    }
  })();
  db.close();
  return performance.now() - started;
}

function benchFirstPage(file: string) {
  const db = openCache(file);
  const cold = performance.now();
  const page = messagesPage(db, 1, { limit: 50 });
  const coldMs = performance.now() - cold;
  if (page.length !== 50 || page[0]!.id !== BIG_TICKET_MESSAGES) throw new Error('wrong page');
  const samples: number[] = [];
  for (let i = 0; i < 500; i++) {
    const t = performance.now();
    messagesPage(db, 1, { limit: 50 });
    samples.push(performance.now() - t);
  }
  db.close();
  return { coldMs, ...stats(samples) };
}

function benchSearch(file: string) {
  const db = openCache(file);
  const queries = [
    'entrega',
    'boleto vencimento',
    'pag',
    'termo2s',
    'obrigado pedido prazo',
    'nota fiscal',
  ];
  const rows: { query: string; hits: number; p50: number; p99: number; max: number }[] = [];
  for (const query of queries) {
    const samples: number[] = [];
    let hits = 0;
    for (let i = 0; i < 50; i++) {
      const t = performance.now();
      hits = searchMessages(db, query, { limit: 50 }).length;
      samples.push(performance.now() - t);
    }
    rows.push({ query, hits, ...stats(samples) });
  }
  db.close();
  return rows;
}

/** 10,000 feed changes (a message and its ticket each, as the server sends), in pages of 500. */
async function benchApply(file: string) {
  const db = openCache(file);
  const log = Array.from({ length: CHANGES }, (_, i) => {
    const ticket = {
      id: 1 + (i % 50),
      status: 'open',
      userId: 1,
      unreadMessages: i % 7,
      updatedAt: iso(i),
    };
    const message = {
      id: 1_000_000 + i,
      ticketId: ticket.id,
      body: sentence(),
      fromMe: false,
      read: false,
      createdAt: iso(i),
    };
    return {
      seq: i + 1,
      entity: 'message',
      entityId: message.id,
      action: 'create',
      payload: { action: 'create', message, ticket },
    };
  });
  const pages = new Map<number, string>();
  for (let after = 0; after < CHANGES; after += 500) {
    const rows = log.slice(after, after + 500);
    pages.set(
      after,
      JSON.stringify({ changes: rows, hasMore: after + 500 < CHANGES, last: rows.at(-1)!.seq }),
    );
  }
  const engine = new SyncEngine({
    store: new SqliteStore(db),
    clock: systemClock,
    pageSize: 500,
    transport: {
      fetchChanges: async (after) => JSON.parse(pages.get(after)!) as unknown,
      fetchSnapshot: () => Promise.reject(new Error('no reset here')),
    },
  });
  await engine.start();
  const t = performance.now();
  await engine.pull();
  const elapsed = performance.now() - t;
  const count = (
    db.prepare(`SELECT count(*) AS n FROM messages WHERE id >= 1000000`).get() as { n: number }
  ).n;
  if (count !== CHANGES || engine.position !== CHANGES) throw new Error('not all changes applied');
  db.close();
  return elapsed;
}

const dir = mkdtempSync(join(tmpdir(), 'atende-bench-'));
try {
  const file = join(dir, 'cache.sqlite');
  const seedMs = seedCache(file);
  const page = benchFirstPage(file);
  const search = benchSearch(file);
  const applyMs = await benchApply(join(dir, 'apply.sqlite'));
  const worstSearch = Math.max(...search.map((r) => r.p99));
  const verdict = (ok: boolean) => (ok ? 'met' : '**not met**');
  const md = [
    '## Desktop cache (SQLite, better-sqlite3)',
    '',
    `Date: ${new Date().toISOString()}. Machine: ${cpus()[0]?.model ?? 'cpu'} × ${cpus().length}, ${Math.round(totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}.`,
    'Command: `npx tsx desktop/bench/cache-bench.ts` (a cache file on disk in WAL mode, as the app opens it;',
    `${TOTAL_MESSAGES.toLocaleString('en')} messages over ${TICKETS} tickets, FTS5 index built by the insert triggers, seeded in ${(seedMs / 1000).toFixed(1)} s).`,
    '',
    '| measure | target | result | |',
    '|---|---|---|---|',
    `| first page (50) of a ${BIG_TICKET_MESSAGES.toLocaleString('en')}-message ticket | ≤${TARGETS.firstPageMs} ms | cold ${ms(page.coldMs)} ms; warm p50 ${ms(page.p50)} / p99 ${ms(page.p99)} ms | ${verdict(Math.max(page.coldMs, page.p99) <= TARGETS.firstPageMs)} |`,
    `| apply ${CHANGES.toLocaleString('en')} feed changes (JSON pages of 500 → engine → SQLite, cursor per page) | ≤${TARGETS.applyMs} ms | ${ms(applyMs)} ms | ${verdict(applyMs <= TARGETS.applyMs)} |`,
    `| full-text search over ${TOTAL_MESSAGES.toLocaleString('en')} messages (first 50, newest first) | ≤${TARGETS.ftsMs} ms | worst p99 ${ms(worstSearch)} ms | ${verdict(worstSearch <= TARGETS.ftsMs)} |`,
    '',
    '| search | hits (≤50) | p50 ms | p99 ms | max ms |',
    '|---|---|---|---|---|',
    ...search.map(
      (r) => `| \`${r.query}\` | ${r.hits} | ${ms(r.p50)} | ${ms(r.p99)} | ${ms(r.max)} |`,
    ),
  ].join('\n');
  if (!process.argv.includes('--no-write')) writeSection('desktop-cache-bench', md);
  console.warn(md);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
