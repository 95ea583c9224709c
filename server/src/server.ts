import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from './config.js';
import type { AppContext } from './context.js';
import { createDataSource, migrate } from './db/data-source.js';
import { startEmbeddedPostgres } from './db/embedded.js';
import { seed } from './db/seed.js';
import { createHttpApp } from './http/app.js';
import { createRedis, ensureRedis } from './lib/redis.js';
import { logger } from './logger.js';
import { Mailer } from './mail/mailer.js';
import { startChangeRelay } from './modules/changes/index.js';
import { modules } from './modules/index.js';
import { hooksOf, workersOf } from './modules/manifest.js';
import { SettingsService } from './modules/settings/index.js';
import { Realtime } from './realtime/emitter.js';
import { acceptConnections, createIo } from './realtime/io.js';
import { followEndedSessions } from './realtime/revoke.js';

export interface RunningServer {
  app: AppContext;
  url: string;
  close: () => Promise<void>;
}

const MIGRATION_LOCK = 727_001;

const defaultWebDir = () =>
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../desktop/dist/web');

/**
 * Starts what `config.ROLE` asks for: `api` (HTTP + sockets), `worker` (jobs, WhatsApp
 * sessions) or `all`. Returns a handle whose close() shuts everything down in order.
 */
export async function startServer(config: Config): Promise<RunningServer> {
  const stops: (() => Promise<void> | void)[] = [];
  const close = async () => {
    for (const stop of stops.reverse()) {
      await Promise.resolve(stop()).catch((err: unknown) =>
        logger.warn({ err }, 'shutdown step failed'),
      );
    }
  };
  try {
    let databaseUrl = config.DATABASE_URL;
    if (!databaseUrl) {
      const pg = await startEmbeddedPostgres(config.DATA_DIR);
      databaseUrl = pg.url;
      stops.push(pg.stop);
    }
    const privateRedis = await ensureRedis(config.REDIS_URL, config.DATA_DIR);
    if (privateRedis) stops.push(privateRedis.stop);

    const ds = createDataSource(databaseUrl, config.DB_POOL_SIZE);
    await ds.initialize();
    stops.push(() => ds.destroy());
    // Several processes may start together: one migrates and seeds, the others wait.
    await ds.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await migrate(ds);
      const seeded = await seed(ds, config);
      if (seeded?.generated) {
        // Printed this once only: the seed never runs again on this database.
        logger.warn(
          { email: seeded.email, password: seeded.password },
          'super user created with a generated password: write it down and change it',
        );
      } else if (seeded) logger.info({ email: seeded.email }, 'super user created');
    } finally {
      await ds.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }

    const redis = createRedis(config.REDIS_URL);
    const settingsSub = createRedis(config.REDIS_URL);
    const ioPub = createRedis(config.REDIS_URL);
    const ioSub = ioPub.duplicate();
    stops.push(() => {
      for (const r of [redis, settingsSub, ioPub, ioSub]) r.disconnect();
    });

    const runsApi = config.ROLE !== 'worker';
    const http: HttpServer | undefined = runsApi ? createServer() : undefined;
    const io = createIo(ioPub, ioSub, config.REDIS_PREFIX, http);
    stops.push(() => new Promise<void>((resolve) => void io.close(() => resolve())));

    const mailer = new Mailer(config.SMTP_URL, config.MAIL_FROM);
    stops.push(() => mailer.close());
    const settings = new SettingsService(ds, redis, config.REDIS_PREFIX);
    await settings.listen(settingsSub);
    const app: AppContext = {
      config: { ...config, WEB_DIR: config.WEB_DIR ?? defaultWebDir() },
      ds,
      redis,
      realtime: new Realtime(io),
      mailer,
      settings,
      prefix: config.REDIS_PREFIX,
      hooks: hooksOf(modules),
    };

    if (config.ROLE !== 'api') {
      const started: { close: () => Promise<void> }[] = [];
      stops.push(async () => {
        // Together, so WhatsApp sessions release their leases at once for another worker.
        await Promise.all(started.map((s) => s.close()));
      });
      for (const start of workersOf(modules)) started.push(await start(app));
    }

    let url = '';
    if (http) {
      acceptConnections(app, io);
      // Numbered changes reach this process's sockets through its relay, each number once.
      const relay = await startChangeRelay(app, io);
      stops.push(relay.close);
      await followEndedSessions(app, settingsSub);
      http.on('request', createHttpApp(app));
      await new Promise<void>((resolve, reject) => {
        http.once('error', reject);
        http.listen(config.PORT, config.HOST, resolve);
      });
      const { port } = http.address() as AddressInfo;
      url = `http://127.0.0.1:${port}`;
      // Closing the http server last-in-first-out means it stops accepting before the rest goes.
      stops.push(
        () =>
          new Promise<void>((resolve) => {
            http.close(() => resolve());
            http.closeAllConnections();
          }),
      );
    }
    logger.info({ role: config.ROLE, url }, 'Atende started');
    return { app, url, close };
  } catch (err) {
    await close();
    throw err;
  }
}
