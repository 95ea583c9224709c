import { EntitySchema } from 'typeorm';

/** Quick message (secondary §3): `geral` ones are seen by the whole company. */
export interface QuickMessage {
  id: number;
  companyId: number;
  userId: number | null;
  shortcode: string;
  message: string;
  geral: boolean;
  mediaPath: string | null;
  mediaName: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export const QuickMessageEntity = new EntitySchema<QuickMessage>({
  name: 'QuickMessage',
  tableName: 'quick_messages',
  columns: {
    id: { type: Number, primary: true, generated: true },
    companyId: { type: Number },
    userId: { type: Number, nullable: true },
    shortcode: { type: String },
    message: { type: String },
    geral: { type: Boolean },
    mediaPath: { type: String, nullable: true },
    mediaName: { type: String, nullable: true },
    createdAt: { type: 'timestamptz', createDate: true },
    updatedAt: { type: 'timestamptz', updateDate: true },
  },
});
