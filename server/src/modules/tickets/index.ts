// Tickets: lists, transitions, visibility.
import { TicketEntity } from './ticket.entity.js';
import { ticketsRoutes } from './tickets.routes.js';
import { defineModule } from '../manifest.js';

export const ticketsModule = defineModule({
  name: 'tickets',
  entities: [TicketEntity],
  routers: [ticketsRoutes],
});

// What other modules use (they import this module only through this file).
export {
  findOrCreateTicket,
  loadTicket,
  loadTickets,
  TICKET_VIEW_SQL,
  ticketChange,
  ticketGone,
  type TicketView,
} from './tickets.queries.js';
export { assertCanOpen, feedViewer, isAdmin, loadViewer, type Viewer } from './visibility.js';
export { visibleTicketsSql } from './visibility.js';
export { ticketEvents } from './ticket-events.js';
export * from './ticket-writes.js';
