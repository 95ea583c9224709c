// What a module adds to the server, declared in one value exported by its `index.ts`. The list in
// `modules/index.ts` is the only place that decides what runs and in which order: the server,
// the HTTP app and the data source loop over it. Nothing is registered by importing a file.
import type { EntitySchema } from 'typeorm';
import type { RouterFactory } from '../http/app.js';
import type { WorkerStarter } from '../jobs/bullmq.js';
import type {
  MediaResultHandler,
  OutboundResultHandler,
  ProviderPayloadLookup,
  SessionEventHandler,
} from '../whatsapp/hooks.js';
import type { DomainEventConsumer } from './changes/index.js';
import type { HandOff } from './routing/index.js';

/** What a module listens to. Each list runs in the order of the module list. */
export interface ModuleListeners {
  /** Every event of a running WhatsApp session (whatsapp/session.ts). */
  sessionEvent?: SessionEventHandler[];
  /** The final result of a send job (whatsapp/outbound.ts). */
  outboundResult?: OutboundResultHandler[];
  /** The final result of a media download (whatsapp/media.ts). */
  mediaResult?: MediaResultHandler[];
  /** Finds a stored provider copy of a message we sent (whatsapp/providers.ts). */
  providerPayloadLookup?: ProviderPayloadLookup[];
  /** AI prompts and integrations that may take an inbound message (routing's `handOffRule`). */
  handOff?: HandOff[];
}

export interface ModuleManifest {
  /** The folder name; also the prefix of its domain-event consumer names. */
  name: string;
  /** TypeORM entities, for `TenantScope` repositories (raw-SQL tables need none). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  entities?: EntitySchema<any>[];
  /** Express router factories, mounted in the order of the module list. */
  routers?: RouterFactory[];
  /** Started by the worker role (`ROLE` worker or all), closed together at shutdown. */
  workers?: WorkerStarter[];
  listeners?: ModuleListeners;
  /**
   * Readers of the domain events (modules/changes/domain-events.ts): the reactions to a state
   * change that must happen at least once, in order, after a crash too (what used to be the
   * inbound pipeline's post-commit steps).
   */
  consumers?: DomainEventConsumer[];
}

/** The listeners of every module, in module order: what `app.hooks` holds. */
export interface AppHooks {
  sessionEvent: SessionEventHandler[];
  outboundResult: OutboundResultHandler[];
  mediaResult: MediaResultHandler[];
  providerPayloadLookup: ProviderPayloadLookup[];
  handOff: HandOff[];
  consumers: DomainEventConsumer[];
}

/** Collects the modules' listeners into fresh lists (one set per AppContext). */
export function hooksOf(modules: readonly ModuleManifest[]): AppHooks {
  const all = <K extends keyof ModuleListeners>(key: K): NonNullable<ModuleListeners[K]> => {
    const lists = modules.map((m) => (m.listeners?.[key] ?? []) as unknown[]);
    return lists.flat() as NonNullable<ModuleListeners[K]>;
  };
  const consumers = modules.flatMap((m) => m.consumers ?? []);
  const names = new Set<string>();
  for (const c of consumers) {
    if (names.has(c.name)) throw new Error(`two domain-event consumers are named ${c.name}`);
    names.add(c.name);
  }
  return {
    sessionEvent: all('sessionEvent'),
    outboundResult: all('outboundResult'),
    mediaResult: all('mediaResult'),
    providerPayloadLookup: all('providerPayloadLookup'),
    handOff: all('handOff'),
    consumers,
  };
}

/** Everything the module list contributes, flattened in order. */
export const routersOf = (modules: readonly ModuleManifest[]) =>
  modules.flatMap((m) => m.routers ?? []);
export const workersOf = (modules: readonly ModuleManifest[]) =>
  modules.flatMap((m) => m.workers ?? []);
export const entitiesOf = (modules: readonly ModuleManifest[]) =>
  modules.flatMap((m) => (m.entities ?? []) as EntitySchema<unknown>[]);

/** Typed helper for a module's `index.ts`. */
export const defineModule = (manifest: ModuleManifest): ModuleManifest => manifest;
