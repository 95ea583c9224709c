// (b) The machine's raw Postgres rate: single-row INSERT transactions (BEGIN, INSERT, COMMIT),
// synchronous_commit on, from this process, at the concurrency that gives the most.
import pg from 'pg';

export interface RawResult {
  clients: number;
  txPerSecond: number;
}

export async function rawInsertRate(url: string, seconds: number): Promise<RawResult[]> {
  const setup = new pg.Client({ connectionString: url });
  await setup.connect();
  await setup.query(
    'CREATE TABLE IF NOT EXISTS bench_raw (id bigserial PRIMARY KEY, body text, at timestamptz DEFAULT now())',
  );
  await setup.end();
  const results: RawResult[] = [];
  for (const clients of [20, 50]) {
    const pool = new pg.Pool({ connectionString: url, max: clients });
    let count = 0;
    const end = performance.now() + seconds * 1000;
    await Promise.all(
      Array.from({ length: clients }, async () => {
        const c = await pool.connect();
        try {
          while (performance.now() < end) {
            await c.query('BEGIN');
            await c.query('INSERT INTO bench_raw (body) VALUES ($1)', ['x']);
            await c.query('COMMIT');
            count++;
          }
        } finally {
          c.release();
        }
      }),
    );
    await pool.end();
    results.push({ clients, txPerSecond: count / seconds });
  }
  return results;
}
