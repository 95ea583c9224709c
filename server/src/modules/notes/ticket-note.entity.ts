import { EntitySchema } from 'typeorm';

export interface TicketNote {
  id: number;
  companyId: number;
  note: string;
  ticketId: number;
  contactId: number;
  userId: number | null;
  createdAt: Date;
  updatedAt: Date;
}

export const TicketNoteEntity = new EntitySchema<TicketNote>({
  name: 'TicketNote',
  tableName: 'ticket_notes',
  columns: {
    id: { type: Number, primary: true, generated: true },
    companyId: { type: Number },
    note: { type: String },
    ticketId: { type: Number },
    contactId: { type: Number },
    userId: { type: Number, nullable: true },
    createdAt: { type: 'timestamptz', createDate: true },
    updatedAt: { type: 'timestamptz', updateDate: true },
  },
});
