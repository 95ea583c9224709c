import type { Server } from 'socket.io';
import {
  companyEvent,
  roomOfCompany,
  roomOfCompanyAdmins,
  roomOfUser,
  type CompanyEventName,
} from '@atende/shared';

/** Sockets of non-admin users with this queue. */
export const roomOfQueue = (companyId: number, queueId: number): string =>
  `company-${companyId}-queue-${queueId}`;
/** Sockets of non-admin users allowed to see tickets without a queue (allTicket enabled). */
export const roomOfNoQueue = (companyId: number): string => `company-${companyId}-noqueue`;

/** The rooms whose sockets may see a ticket of this queue: admins plus that queue's users. */
export const ticketAudience = (companyId: number, queueId: number | null): string[] => [
  roomOfCompanyAdmins(companyId),
  queueId == null ? roomOfNoQueue(companyId) : roomOfQueue(companyId, queueId),
];

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
}
