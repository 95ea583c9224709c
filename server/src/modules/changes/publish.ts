import { EVENT_OF_ENTITY, roomOfUser, type CompanyEventPayload } from '@atende/shared';
import type { Server } from 'socket.io';
import type { EntityManager } from 'typeorm';
import type { AppContext } from '../../context.js';
import { withRetry } from '../../db/transaction.js';
import type { Realtime } from '../../realtime/emitter.js';
import { listRoomsLeft, type TicketPlacement } from '../../realtime/rooms.js';
import { mediaBase, withSignedPayload } from '../whatsapps/index.js';
import {
  newChangeList,
  recordChanges,
  type Change,
  type ChangeList,
  type PendingChange,
} from './change-log.js';
import { domainEventsWritten, recordDomainEvents } from './domain-events.js';
import { sendToRelays, startFeedRelay, type RelayedChange } from './relay.js';
import { sequencerOf, startChangeSweeper } from './sequencer.js';

/**
 * Hints a writer may add to a ticket change, used when this process publishes it (they are not
 * stored: a change published by another process, or by the sweeper, goes without them).
 */
export interface TicketChangeHints {
  /** The ticket's placement before the change (an update), for the lists it left. */
  before?: TicketPlacement;
  /** A delete because the ticket moved to this queue: its viewers still see it, not told. */
  movedToQueue?: number | null;
}

/**
 * Sends numbered changes to the api processes' relays (`relay.ts`), which emit each number once
 * to their own sockets.
 */
export function publish(app: AppContext, companyId: number, changes: RelayedChange[]): void {
  sendToRelays(app, companyId, changes);
}

/** Starts the change relay of an api process (server.ts). */
export const startChangeRelay = (app: AppContext, io: Server) =>
  startFeedRelay(app, io, (realtime, companyId, changes) =>
    emitChanges(app, realtime, companyId, changes),
  );

/** Emits numbered changes as socket events, each carrying its change-feed number. */
function emitChanges(
  app: AppContext,
  realtime: Realtime,
  companyId: number,
  changes: RelayedChange[],
): void {
  for (const change of changes) {
    // Notes travel through the feed only; the drawer reloads them (no socket event in core §7).
    const name = EVENT_OF_ENTITY[change.entity];
    if (!name) continue;
    // Each writer's payload is typed by its entity (Change); the entity→event pairing is the map's.
    // Media links: absolute with PUBLIC_URL, else relative to the server (media-links.ts).
    const payload = {
      ...withSignedPayload(app, companyId, change.entity, change.payload, mediaBase(app)),
      seq: change.seq,
    } as CompanyEventPayload<typeof name>;
    if (change.entity === 'ticket') publishListMoves(realtime, companyId, change);
    if (change.userIds) {
      // Members' changes (internal chat) go to those users' own rooms, never company-wide.
      realtime.toRooms(companyId, change.userIds.map(roomOfUser), name, payload);
    } else if (
      change.entity === 'ticket' &&
      change.action === 'delete' &&
      change.movedToQueue !== undefined
    ) {
      realtime.toTicketViewersExcept(
        companyId,
        change.ticketQueueId ?? null,
        change.movedToQueue,
        name,
        payload,
      );
    } else if (change.ticketQueueId !== undefined) {
      realtime.toTicketViewers(companyId, change.ticketQueueId, name, payload);
    } else {
      realtime.toCompany(companyId, name, payload);
    }
  }
}

/**
 * A ticket that left a list (new status or owner; closed) is deleted from the clients showing
 * that list before its update goes out, as Whaticket's clients expect. These deletes are not
 * feed entries (no `seq`): a client that catches up from the feed applies the update itself.
 */
function publishListMoves(
  realtime: Realtime,
  companyId: number,
  change: Change & TicketChangeHints,
): void {
  if (change.action !== 'update') return;
  const ticket = (change.payload as { ticket?: TicketPlacement & { id: number } }).ticket;
  if (!ticket) return;
  const rooms = listRoomsLeft(companyId, change.before, ticket);
  realtime.toRooms(companyId, rooms, 'ticket', { action: 'delete', ticketId: ticket.id });
}

const sequencer = (app: AppContext) =>
  sequencerOf(app, (companyId, changes) => publish(app, companyId, changes));

/** Numbers and publishes changes a caller committed itself (see messages/inbound-fast.ts). */
export const publishCommitted = (app: AppContext, companyId: number, pending: PendingChange[]) =>
  sequencer(app).sequence(companyId, pending);

/**
 * Runs `work` in one transaction and commits it (again, from the start, when Postgres aborted it
 * for a deadlock or a serialization failure: `work` must only write through `tx`); the changes it pushed are then numbered and sent
 * as socket events, which `published` waits for. Lets a caller go on with post-commit work while
 * its changes are numbered.
 */
export async function commitWithChanges<T>(
  app: AppContext,
  companyId: number,
  work: (tx: EntityManager, changes: ChangeList) => Promise<T>,
): Promise<{ value: T; published: Promise<void> }> {
  // A transaction aborted by a deadlock or serialization failure runs again (bounded, jittered).
  const { value, pending, events } = await withRetry(() =>
    app.ds.transaction(async (tx) => {
      const changes = newChangeList();
      const result = await work(tx, changes);
      await recordDomainEvents(tx, companyId, changes.events);
      return {
        value: result,
        pending: await recordChanges(tx, companyId, changes),
        events: changes.events.length,
      };
    }),
  );
  if (events) domainEventsWritten(app);
  return { value, published: sequencer(app).sequence(companyId, pending) };
}

/**
 * Runs `work` in one transaction; the changes it pushes are numbered after it commits and sent as
 * socket events before this resolves.
 */
export async function withChanges<T>(
  app: AppContext,
  companyId: number,
  work: (tx: EntityManager, changes: ChangeList) => Promise<T>,
): Promise<T> {
  const { value, published } = await commitWithChanges(app, companyId, work);
  await published;
  return value;
}

/** Numbers what crashed writers left pending (a worker starter, see the module's manifest). */
export const changeSweeper = startChangeSweeper(sequencer);
