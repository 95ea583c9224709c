// One writer per table (issue 12 item 5): outgoing messages are inserted only by
// modules/messages/outgoing.ts, inbound ones only by the inbound pipeline, and ticket rows are
// updated only by modules/tickets/ticket-writes.ts. The scan reads server/src as text.
import { mkdtemp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

type Rule = 'messages-insert' | 'tickets-update' | 'hidden-table';

interface Finding {
  file: string;
  line: number;
  rule: Rule;
  text: string;
}

// An optional schema, the table name quoted or not, and nothing after it that makes it another
// table (messages_archive, ticket_tags).
const table = (name: string) => String.raw`(?:"?public"?\.)?"?${name}"?(?![\w"])`;

const PATTERNS: [Rule, RegExp][] = [
  ['messages-insert', new RegExp(String.raw`\binsert\s+into\s+${table('messages')}`, 'gi')],
  [
    'messages-insert',
    /\b(?:repo|getRepository)\(\s*MessageEntity\s*\)\s*\.\s*(?:insert|save|upsert)\s*\(/g,
  ],
  ['messages-insert', /\.(?:insert|save|upsert)\(\s*MessageEntity\b/g],
  ['messages-insert', /\.into\(\s*MessageEntity\b/g],
  ['tickets-update', new RegExp(String.raw`\bupdate\s+${table('tickets')}`, 'gi')],
  [
    'tickets-update',
    /\b(?:repo|getRepository)\(\s*TicketEntity\s*\)\s*\.\s*(?:update|save|upsert|increment|decrement)\s*\(/g,
  ],
  ['tickets-update', /\.(?:update|save|upsert|increment|decrement)\(\s*TicketEntity\b/g],
  // A table name built at run time cannot be checked: it is refused everywhere.
  ['hidden-table', /\b(?:update|insert\s+into)\s+\$\{/gi],
];

/** The files that must keep a write of each kind, and why. Paths from the server folder. */
const ALLOWED: Record<Rule, Record<string, string>> = {
  'messages-insert': {
    'src/modules/messages/outgoing.ts': 'the outgoing writer (storeOutgoing)',
    'src/modules/messages/inbound.ts': 'the inbound writer, general path (commitInbound)',
    'src/modules/messages/inbound-batch.ts':
      'the inbound writer, a run of common messages in one transaction (storeInboundBatch, and storeFast as a run of one)',
  },
  'tickets-update': {
    'src/modules/tickets/ticket-writes.ts': 'the ticket writer',
    'src/db/migrations/1732240100000-ForeignReferences.ts':
      'schema history: a migration that rewrites rows once, before any writer runs',
  },
  'hidden-table': {},
};

/** Every write of a guarded table in `source`, with its line. */
export function scanSource(file: string, source: string): Finding[] {
  const findings: Finding[] = [];
  for (const [rule, pattern] of PATTERNS) {
    for (const match of source.matchAll(pattern)) {
      const line = source.slice(0, match.index).split('\n').length;
      findings.push({ file, line, rule, text: match[0].replace(/\s+/g, ' ') });
    }
  }
  return findings;
}

async function tsFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((e) => {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) return tsFiles(full);
      return Promise.resolve(/\.(ts|tsx|mts|cts)$/.test(e.name) ? [full] : []);
    }),
  );
  return nested.flat();
}

/** Scans every TypeScript file under `root`/src; file names are relative to `root`. */
export async function scanTree(root: string): Promise<Finding[]> {
  const files = await tsFiles(path.join(root, 'src'));
  const all = await Promise.all(
    files.map(async (f) =>
      scanSource(path.relative(root, f).split(path.sep).join('/'), await readFile(f, 'utf8')),
    ),
  );
  return all.flat();
}

/** The findings outside the allow-list. */
export const violations = (findings: Finding[]): Finding[] =>
  findings.filter((f) => !(f.file in ALLOWED[f.rule]));

const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

describe('one writer per table', () => {
  it('server/src inserts messages and updates tickets only in their writers', async () => {
    const findings = await scanTree(serverRoot);
    expect(violations(findings)).toEqual([]);
    // The allow-list is exact: each file on it still has the write it is allowed for.
    for (const [rule, files] of Object.entries(ALLOWED) as [Rule, Record<string, string>][]) {
      for (const file of Object.keys(files))
        expect(
          findings.some((f) => f.rule === rule && f.file === file),
          `${file} is allowed ${rule} but has none`,
        ).toBe(true);
    }
  });

  it.each([
    ['INSERT INTO messages (body) VALUES ($1)', 'messages-insert'],
    ['insert   into\n  "messages"("body")', 'messages-insert'],
    ['INSERT INTO public.messages (body)', 'messages-insert'],
    ['WITH ins AS (insert into messages (x) values (1))', 'messages-insert'],
    ['await scope.repo(MessageEntity).save({ body })', 'messages-insert'],
    ['ds.getRepository(MessageEntity) .insert({ body })', 'messages-insert'],
    ['tx.save(MessageEntity, { body })', 'messages-insert'],
    ['qb.insert().into(MessageEntity).values({})', 'messages-insert'],
    ['UPDATE tickets SET status = $2', 'tickets-update'],
    ['update "tickets" t set x = 1', 'tickets-update'],
    ['WITH upd AS (UPDATE\n    tickets SET "lastMessage" = $2)', 'tickets-update'],
    ['scope.repo(TicketEntity).update(id, { status })', 'tickets-update'],
    ['tx.update(TicketEntity, id, { status })', 'tickets-update'],
    ['tx.query(`UPDATE ${table} SET "contactId" = $2`)', 'hidden-table'],
  ] as const)('finds %j (%s)', (source, rule) => {
    const found = scanSource('src/modules/planted.ts', source);
    expect(found.map((f) => f.rule)).toContain(rule);
    expect(violations(found)).not.toEqual([]);
  });

  it.each([
    'SELECT id FROM tickets WHERE id = $1 FOR UPDATE',
    'SELECT id FROM tickets FOR NO KEY UPDATE OF t',
    'UPDATE ticket_tags SET "tagId" = $2',
    'UPDATE messages SET read = true',
    'INSERT INTO messages_archive SELECT * FROM messages',
    'INSERT INTO tickets ("companyId") VALUES ($1)',
    'ON CONFLICT ("ticketId") DO UPDATE SET stage = EXCLUDED.stage',
    'scope.repo(TicketEntity).find({ where: { id } })',
  ])('leaves %j alone', (source) => {
    expect(scanSource('src/modules/planted.ts', source)).toEqual([]);
  });

  const planted: string[] = [];
  afterAll(() => Promise.all(planted.map((dir) => rm(dir, { recursive: true, force: true }))));

  it('fails on a write planted in a tree, and names its file and line', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'one-writer-'));
    planted.push(root);
    await mkdir(path.join(root, 'src/modules/campaigns'), { recursive: true });
    await mkdir(path.join(root, 'src/modules/tickets'), { recursive: true });
    await writeFile(
      path.join(root, 'src/modules/campaigns/send.ts'),
      "const a = 1;\nawait tx.query('INSERT INTO messages (body) VALUES ($1)', [text]);\n",
    );
    await writeFile(
      path.join(root, 'src/modules/tickets/ticket-writes.ts'),
      "await tx.query('UPDATE tickets SET status = $2 WHERE id = $1');\n",
    );
    const found = await scanTree(root);
    expect(violations(found)).toEqual([
      {
        file: 'src/modules/campaigns/send.ts',
        line: 2,
        rule: 'messages-insert',
        text: 'INSERT INTO messages',
      },
    ]);
    expect(found).toHaveLength(2);
  });
});
