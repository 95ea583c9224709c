import { EntitySchema } from 'typeorm';

export interface Contact {
  id: number;
  companyId: number;
  name: string;
  /** Phone digits ('' when only the LID is known yet); a group's chat id for groups. */
  number: string;
  lid: string | null;
  email: string;
  profilePicUrl: string;
  isGroup: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export const ContactEntity = new EntitySchema<Contact>({
  name: 'Contact',
  tableName: 'contacts',
  columns: {
    id: { type: Number, primary: true, generated: true },
    companyId: { type: Number },
    name: { type: String },
    number: { type: String },
    lid: { type: String, nullable: true },
    email: { type: String },
    profilePicUrl: { type: String },
    isGroup: { type: Boolean },
    createdAt: { type: 'timestamptz', createDate: true },
    updatedAt: { type: 'timestamptz', updateDate: true },
  },
});
