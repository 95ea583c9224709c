import { EntitySchema } from 'typeorm';

/** A help video (administration §3): platform-wide, no company id. */
export interface Help {
  id: number;
  title: string;
  description: string;
  video: string;
  createdAt: Date;
  updatedAt: Date;
}

export const HelpEntity = new EntitySchema<Help>({
  name: 'Help',
  tableName: 'helps',
  columns: {
    id: { type: Number, primary: true, generated: true },
    title: { type: String },
    description: { type: String },
    video: { type: String },
    createdAt: { type: 'timestamptz', createDate: true },
    updatedAt: { type: 'timestamptz', updateDate: true },
  },
});
