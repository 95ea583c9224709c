import { EntitySchema } from 'typeorm';

export interface Tag {
  id: number;
  companyId: number;
  name: string;
  color: string;
  kanban: number;
  createdAt: Date;
  updatedAt: Date;
}

export const TagEntity = new EntitySchema<Tag>({
  name: 'Tag',
  tableName: 'tags',
  columns: {
    id: { type: Number, primary: true, generated: true },
    companyId: { type: Number },
    name: { type: String },
    color: { type: String },
    kanban: { type: Number },
    createdAt: { type: 'timestamptz', createDate: true },
    updatedAt: { type: 'timestamptz', updateDate: true },
  },
});
