import { EntitySchema } from 'typeorm';

export interface Message {
  id: number;
  companyId: number;
  whatsappId: number | null;
  ticketId: number;
  contactId: number;
  wid: string;
  fromMe: boolean;
  body: string;
  ack: number;
  read: boolean;
  mediaType: string;
  mediaUrl: string | null;
  isDeleted: boolean;
  isEdited: boolean;
  previousBodies: { body: string; editedAt: string }[];
  quotedMsgId: number | null;
  clientId: string | null;
  userId: number | null;
  sendError: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export const MessageEntity = new EntitySchema<Message>({
  name: 'Message',
  tableName: 'messages',
  columns: {
    id: { type: Number, primary: true, generated: true },
    companyId: { type: Number },
    whatsappId: { type: Number, nullable: true },
    ticketId: { type: Number },
    contactId: { type: Number },
    wid: { type: String },
    fromMe: { type: Boolean },
    body: { type: String },
    ack: { type: Number },
    read: { type: Boolean },
    mediaType: { type: String },
    mediaUrl: { type: String, nullable: true },
    isDeleted: { type: Boolean },
    isEdited: { type: Boolean },
    previousBodies: { type: 'jsonb' },
    quotedMsgId: { type: Number, nullable: true },
    clientId: { type: String, nullable: true },
    userId: { type: Number, nullable: true },
    sendError: { type: String, nullable: true },
    createdAt: { type: 'timestamptz' },
    updatedAt: { type: 'timestamptz', updateDate: true },
  },
});
