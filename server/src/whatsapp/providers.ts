// Which provider class runs a connection, by its `provider` column.
import type { AppContext } from '../context.js';
import { logger } from '../logger.js';
import { LazyProvider } from './baileys/lazy.js';
import { PgAuthStore } from './baileys/pg-auth-store.js';
import type { ConnectionRef } from './hooks.js';
import type { MessageRef, WhatsAppProvider } from './port.js';
import { createSimulatorProvider } from './simulator/index.js';

export interface ProviderNeeds {
  /** Asked before reconnecting after a 440: is the lease still ours? */
  checkOwnership: () => Promise<boolean>;
  /**
   * Resolves once the events raised so far are durable in the session's inbox. The simulator reads
   * its next deliveries only then; Baileys cannot wait (it sends the receipt itself, see
   * docs/decisions.md), its events are appended as soon as they are raised.
   */
  whenDurable: () => Promise<void>;
}

async function lookupPayload(app: AppContext, connection: ConnectionRef, ref: MessageRef) {
  for (const lookup of app.hooks.providerPayloadLookup) {
    const payload = await lookup(app, connection, ref);
    if (payload) return payload;
  }
  return undefined;
}

export function createProvider(
  app: AppContext,
  connection: ConnectionRef & { provider: string },
  needs: ProviderNeeds,
): WhatsAppProvider {
  const connectionId = String(connection.whatsappId);
  if (connection.provider === 'simulator') {
    if (!app.config.SIMULATOR) throw new Error('the simulator is off (SIMULATOR=off)');
    return createSimulatorProvider(app, connectionId, {
      checkOwnership: needs.checkOwnership,
      whenDurable: needs.whenDurable,
    });
  }
  // Baileys is loaded with the first real number this process runs (see baileys/lazy.ts).
  return new LazyProvider(connectionId, async () => {
    const { BaileysProvider } = await import('./baileys/adapter.js');
    return new BaileysProvider({
      connectionId,
      authStore: new PgAuthStore(app.ds, connection.whatsappId),
      logger: logger.child({ whatsappId: connection.whatsappId }) as never,
      checkOwnership: needs.checkOwnership,
      getMessage: (ref) => lookupPayload(app, connection, ref),
    });
  });
}
