import type { Server } from 'socket.io';
import {
  companyEvent,
  roomOfCompany,
  roomOfCompanyAdmins,
  roomOfUser,
  type CompanyEventName,
} from '@atende/shared';
import { ticketAudience } from './rooms.js';

export { roomOfNoQueue, roomOfQueue, ticketAudience } from './rooms.js';

/**
 * Every event leaves through here, to a room of one company (or one of its users): an event of
 * company A can never reach a socket of company B. Works from api and worker processes alike
 * (the Redis adapter carries it across processes).
 */
export class Realtime {
  constructor(readonly io: Server) {}

  toCompany(companyId: number, name: CompanyEventName, payload: object): void {
    this.io.to(roomOfCompany(companyId)).emit(companyEvent(companyId, name), payload);
  }

  toCompanyAdmins(companyId: number, name: CompanyEventName, payload: object): void {
    this.io.to(roomOfCompanyAdmins(companyId)).emit(companyEvent(companyId, name), payload);
  }

  toUser(companyId: number, userId: number, name: CompanyEventName, payload: object): void {
    this.io.to(roomOfUser(userId)).emit(companyEvent(companyId, name), payload);
  }

  /**
   * Ticket and message events: only sockets whose user may see a ticket of `queueId` get them
   * (a socket in several of the rooms receives the event once).
   */
  toTicketViewers(
    companyId: number,
    queueId: number | null,
    name: CompanyEventName,
    payload: object,
  ): void {
    this.io.to(ticketAudience(companyId, queueId)).emit(companyEvent(companyId, name), payload);
  }

  /** A ticket event for the viewers of `queueId` who are not viewers of `exceptQueueId`. */
  toTicketViewersExcept(
    companyId: number,
    queueId: number | null,
    exceptQueueId: number | null,
    name: CompanyEventName,
    payload: object,
  ): void {
    this.io
      .to(ticketAudience(companyId, queueId))
      .except(ticketAudience(companyId, exceptQueueId))
      .emit(companyEvent(companyId, name), payload);
  }

  /** An event for sockets in any of `rooms`, all of them rooms of this company. */
  toRooms(companyId: number, rooms: string[], name: CompanyEventName, payload: object): void {
    if (rooms.length) this.io.to(rooms).emit(companyEvent(companyId, name), payload);
  }
}
