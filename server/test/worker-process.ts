// A worker process for multi-process tests: `node --import tsx test/worker-process.ts` with the
// environment of the test server (same database and Redis prefix), ROLE=worker.
import { loadConfig } from '../src/config.js';
import { startServer } from '../src/server.js';
import { sessionManagerOf } from '../src/whatsapp/sessions.js';

const server = await startServer(loadConfig({ ...process.env, ROLE: 'worker' }));
process.stdout.write(`ready ${process.pid}\n`);
// Sessions are handed over first, so the other workers do not wait for the rest of the shutdown.
process.on('SIGTERM', () => {
  void (sessionManagerOf(server.app)?.close() ?? Promise.resolve())
    .then(() => server.close())
    .then(() => process.exit(0));
});
