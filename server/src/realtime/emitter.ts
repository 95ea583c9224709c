import type { Server } from 'socket.io';
import {
  companyEvent,
  roomOfCompany,
  roomOfCompanyAdmins,
  roomOfUser,
  type CompanyEventName,
} from '@atende/shared';

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
}
