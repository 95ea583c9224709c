// The change feed and the domain events (see CONTEXT.md).
import { startDomainEvents } from './domain-events.js';
import { startChangePruner } from './prune.js';
import { changeSweeper } from './publish.js';
import { syncRoutes } from './sync.routes.js';
import { defineModule } from '../manifest.js';
// The manifest references other files' bindings only as entity schemas, hoisted functions or
// inside arrows, so an import cycle between modules never reads one before it is set.

export const changesModule = defineModule({
  name: 'changes',
  routers: [syncRoutes],
  // The change sweeper, the change-log pruner and this process's domain-event consumers.
  workers: [
    (app) => changeSweeper(app),
    (app) => startChangePruner(app),
    (app) => startDomainEvents(app),
  ],
});

// What other modules use (they import this module only through this file).
export {
  type Change,
  type ChangeList,
  type ChangeOf,
  type FeedViewer,
  pendingJson,
  withPendingIds,
} from './change-log.js';
export {
  type DomainEvent,
  type DomainEventConsumer,
  type DomainEventInput,
  domainEventJson,
  domainEventsWritten,
  pendingWithEventsSql,
} from './domain-events.js';
export {
  commitWithChanges,
  publishCommitted,
  startChangeRelay,
  type TicketChangeHints,
  withChanges,
} from './publish.js';
export { relaySettled } from './relay.js';
