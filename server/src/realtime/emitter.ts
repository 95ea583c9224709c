import type { Server } from 'socket.io';
import {
  companyEvent,
  roomOfCompany,
  roomOfCompanyAdmins,
  roomOfUser,
  platformEvent,
  type CompanyEventName,
  type CompanyEventPayload,
  type PlatformEventName,
  type PlatformEventPayload,
} from '@atende/shared';
import { ticketAudience } from './rooms.js';

export { roomOfNoQueue, roomOfQueue, ticketAudience } from './rooms.js';

/**
 * Every event leaves through here, to a room of one company (or one of its users): an event of
 * company A can never reach a socket of company B. Works from api and worker processes alike
 * (the Redis adapter carries it across processes). Each method is generic over the event name:
 * the payload must match that event's schema in `shared/src/events` (a wrong one does not compile).
 */
export class Realtime {
  /**
   * With `localOnly`, emits reach this process's sockets only (the change-feed relay,
   * `modules/changes/relay.ts`); otherwise every process's, through the Redis adapter.
   */
  constructor(
    readonly io: Server,
    private readonly localOnly = false,
  ) {}

  /** The same emitter for this process's own sockets only. */
  local(): Realtime {
    return new Realtime(this.io, true);
  }

  private to(rooms: string | string[]) {
    return this.localOnly ? this.io.local.to(rooms) : this.io.to(rooms);
  }

  toCompany<N extends CompanyEventName>(
    companyId: number,
    name: N,
    payload: CompanyEventPayload<N>,
  ): void {
    this.to(roomOfCompany(companyId)).emit(companyEvent(companyId, name), payload);
  }

  toCompanyAdmins<N extends CompanyEventName>(
    companyId: number,
    name: N,
    payload: CompanyEventPayload<N>,
  ): void {
    this.to(roomOfCompanyAdmins(companyId)).emit(companyEvent(companyId, name), payload);
  }

  toUser<N extends CompanyEventName>(
    companyId: number,
    userId: number,
    name: N,
    payload: CompanyEventPayload<N>,
  ): void {
    this.to(roomOfUser(userId)).emit(companyEvent(companyId, name), payload);
  }

  /**
   * Ticket and message events: only sockets whose user may see a ticket of `queueId` get them
   * (a socket in several of the rooms receives the event once).
   */
  toTicketViewers<N extends CompanyEventName>(
    companyId: number,
    queueId: number | null,
    name: N,
    payload: CompanyEventPayload<N>,
  ): void {
    this.to(ticketAudience(companyId, queueId)).emit(companyEvent(companyId, name), payload);
  }

  /** A ticket event for the viewers of `queueId` who are not viewers of `exceptQueueId`. */
  toTicketViewersExcept<N extends CompanyEventName>(
    companyId: number,
    queueId: number | null,
    exceptQueueId: number | null,
    name: N,
    payload: CompanyEventPayload<N>,
  ): void {
    this.to(ticketAudience(companyId, queueId))
      .except(ticketAudience(companyId, exceptQueueId))
      .emit(companyEvent(companyId, name), payload);
  }

  /**
   * A platform-wide event (`company-{name}`, e.g. `company-announcement`) to every signed-in
   * socket of every company: only for what the super user publishes to all (announcements).
   */
  toPlatform<N extends PlatformEventName>(name: N, payload: PlatformEventPayload<N>): void {
    (this.localOnly ? this.io.local : this.io).emit(platformEvent(name), payload);
  }

  /** An event for sockets in any of `rooms`, all of them rooms of this company. */
  toRooms<N extends CompanyEventName>(
    companyId: number,
    rooms: string[],
    name: N,
    payload: CompanyEventPayload<N>,
  ): void {
    if (rooms.length) this.to(rooms).emit(companyEvent(companyId, name), payload);
  }
}
