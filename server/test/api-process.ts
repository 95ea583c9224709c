// An api process for multi-process tests: `node --import tsx test/api-process.ts` with the
// environment of the test server (same database and Redis prefix), ROLE=api, on a free port.
import { loadConfig } from '../src/config.js';
import { startServer } from '../src/server.js';

const server = await startServer(
  loadConfig({ ...process.env, ROLE: 'api', PORT: '0', HOST: '127.0.0.1' }),
);
process.stdout.write(`ready ${process.pid} ${server.url}\n`);
process.on('SIGTERM', () => {
  void server.close().then(() => process.exit(0));
});
