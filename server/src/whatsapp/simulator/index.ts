// One simulated network per running server: the Redis state shared by every process, and (only
// where sessions run) one subscriber that wakes the local simulated devices.
import type { Redis } from 'ioredis';
import type { AppContext } from '../../context.js';
import { createRedis } from '../../lib/redis.js';
import { logger } from '../../logger.js';
import { SimNetwork } from './network.js';
import { SimulatorProvider } from './provider.js';
import type { SimulatorProviderOptions } from './provider.js';

interface Simulator {
  network: SimNetwork;
  onWake: (connectionId: string, wake: () => void) => () => void;
  close: () => Promise<void>;
}

const simulators = new WeakMap<AppContext, Simulator>();

export function simulatorOf(app: AppContext): Simulator {
  let sim = simulators.get(app);
  if (sim) return sim;
  const network = new SimNetwork(app.redis, app.prefix);
  const listeners = new Map<string, Set<() => void>>();
  let subscriber: Redis | undefined;
  const ensureSubscriber = () => {
    if (subscriber) return;
    subscriber = createRedis(app.config.REDIS_URL);
    subscriber.on('message', (_channel: string, connectionId: string) => {
      for (const wake of listeners.get(connectionId) ?? []) wake();
    });
    subscriber.subscribe(network.wakeChannel).catch((err: unknown) => {
      logger.error({ err }, 'simulator wake subscription failed');
    });
  };
  sim = {
    network,
    onWake(connectionId, wake) {
      ensureSubscriber();
      let set = listeners.get(connectionId);
      if (!set) listeners.set(connectionId, (set = new Set()));
      set.add(wake);
      return () => set.delete(wake);
    },
    async close() {
      subscriber?.disconnect();
      subscriber = undefined;
      listeners.clear();
    },
  };
  simulators.set(app, sim);
  return sim;
}

export function createSimulatorProvider(
  app: AppContext,
  connectionId: string,
  options: Partial<SimulatorProviderOptions> = {},
): SimulatorProvider {
  const sim = simulatorOf(app);
  return new SimulatorProvider({
    connectionId,
    network: sim.network,
    onWake: sim.onWake,
    onError: (err) => logger.error({ err, connectionId }, 'simulator session error'),
    ...options,
  });
}
