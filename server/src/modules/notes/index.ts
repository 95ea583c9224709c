// Ticket notes.
import { notesRoutes } from './notes.routes.js';
import { TicketNoteEntity } from './ticket-note.entity.js';
import { defineModule } from '../manifest.js';

export const notesModule = defineModule({
  name: 'notes',
  entities: [TicketNoteEntity],
  routers: [notesRoutes],
});
