import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness.js';
import { createCompanyWithAdmin } from '../../../test/fixtures.js';
import { collect, socketOf, until } from '../../../test/ticketing/fixtures.js';
import { withChanges } from './publish.js';

let server: TestServer;
let companyId: number;
let token: string;

beforeAll(async () => {
  server = await startTestServer();
  const company = await createCompanyWithAdmin(server);
  companyId = company.companyId;
  token = company.admin.token;
});
afterAll(() => server?.close());

const logRows = async () =>
  (await server.app.ds.query(
    `SELECT seq::int AS seq, "entityId", payload FROM change_log WHERE "companyId" = $1 ORDER BY seq`,
    [companyId],
  )) as { seq: number; entityId: number; payload: { tag: { part: number } } }[];

describe('change sequencer', () => {
  it('numbers concurrent writers gap-free, keeps each transaction contiguous and in order, and sends every number once in order', async () => {
    const socket = await socketOf(server, token);
    const events = collect(socket, `company-${companyId}-tag`);
    const before = (await logRows()).length;
    await Promise.all(
      Array.from({ length: 60 }, (_, n) =>
        withChanges(server.app, companyId, async (tx, changes) => {
          await tx.query('SELECT pg_sleep($1)', [Math.random() / 100]);
          for (const part of [0, 1, 2]) {
            const tag = { id: n, part };
            changes.push({
              entity: 'tag',
              entityId: n,
              action: 'update',
              payload: { action: 'update', tag },
            });
          }
        }),
      ),
    );
    const rows = (await logRows()).slice(before);
    expect(rows.map((r) => r.seq)).toEqual(rows.map((_, i) => before + i + 1));
    for (let i = 0; i < rows.length; i += 3) {
      expect(rows.slice(i, i + 3).map((r) => [r.entityId, r.payload.tag.part])).toEqual(
        [0, 1, 2].map((part) => [rows[i]!.entityId, part]),
      );
    }
    expect(new Set(rows.map((r) => r.entityId)).size).toBe(60);
    const pending = await server.app.ds.query(
      'SELECT count(*)::int AS n FROM change_pending WHERE "companyId" = $1',
      [companyId],
    );
    expect(pending[0].n).toBe(0);
    await until(() => events.length >= rows.length || undefined);
    expect(events.map((e) => e.seq)).toEqual(rows.map((r) => r.seq));
    socket.close();
  });

  it('a writer that depends on an earlier one gets a later number', async () => {
    const seqs: number[] = [];
    for (let n = 0; n < 5; n++) {
      await withChanges(server.app, companyId, async (_tx, changes) => {
        changes.push({
          entity: 'tag',
          entityId: 1000 + n,
          action: 'update',
          payload: { action: 'update', tag: { id: 1000 + n } },
        });
      });
      const [row] = await server.app.ds.query(
        `SELECT seq::int AS seq FROM change_log WHERE "companyId" = $1 AND "entityId" = $2`,
        [companyId, 1000 + n],
      );
      seqs.push(row.seq);
    }
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(seqs[4]! - seqs[0]!).toBe(4);
  });

  it('numbers what a crashed writer left pending (the sweeper), after what was already numbered', async () => {
    const [{ seq: last }] = await server.app.ds.query(
      'SELECT seq::int AS seq FROM change_counters WHERE "companyId" = $1',
      [companyId],
    );
    await server.app.ds.query(
      `INSERT INTO change_pending ("companyId", entity, "entityId", action, payload, "createdAt")
       VALUES ($1, 'tag', 4242, 'update', '{"orphan": true}', now() - interval '1 minute')`,
      [companyId],
    );
    const row = await until(async () => {
      const [found] = await server.app.ds.query(
        `SELECT seq::int AS seq FROM change_log WHERE "companyId" = $1 AND "entityId" = 4242`,
        [companyId],
      );
      return found as { seq: number } | undefined;
    }, 10_000);
    expect(row.seq).toBe(last + 1);
  });
});
