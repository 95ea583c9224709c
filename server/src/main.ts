import { ConfigError, loadConfig } from './config.js';
import { logger } from './logger.js';
import { startServer } from './server.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const server = await startServer(config);
  if (server.url) logger.info(`Atende is listening at http://localhost:${config.PORT}`);
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError || (err instanceof Error && err.message.startsWith('Redis'))) {
    console.error(err.message);
  } else {
    logger.fatal({ err }, 'Atende failed to start');
  }
  process.exit(1);
});
