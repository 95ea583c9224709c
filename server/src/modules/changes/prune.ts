import type { AppContext } from '../../context.js';
import type { WorkerStarter } from '../../jobs/bullmq.js';
import { logger } from '../../logger.js';
import { pruneChanges } from './change-log.js';

/** The feed keeps 30 days; a client further behind gets `resetRequired` and resyncs fully. */
export const CHANGE_LOG_RETENTION_MS = 30 * 86_400_000;
const EVERY_MS = 3_600_000;

export const startChangePruner: WorkerStarter = async (app: AppContext) => {
  const run = () =>
    pruneChanges(app.ds, CHANGE_LOG_RETENTION_MS).catch((err: unknown) =>
      logger.warn({ err }, 'change log pruning failed'),
    );
  const timer = setInterval(run, EVERY_MS);
  timer.unref();
  return { close: async () => clearInterval(timer) };
};
