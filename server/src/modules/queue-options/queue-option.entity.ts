import { EntitySchema } from 'typeorm';

/** A node of a queue's option tree (admin §3); `parentId` null is the top level. */
export interface QueueOption {
  id: number;
  companyId: number;
  queueId: number;
  parentId: number | null;
  title: string;
  message: string;
  option: string;
  mediaPath: string | null;
  mediaName: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export const QueueOptionEntity = new EntitySchema<QueueOption>({
  name: 'QueueOption',
  tableName: 'queue_options',
  columns: {
    id: { type: Number, primary: true, generated: true },
    companyId: { type: Number },
    queueId: { type: Number },
    parentId: { type: Number, nullable: true },
    title: { type: String },
    message: { type: String },
    option: { type: String },
    mediaPath: { type: String, nullable: true },
    mediaName: { type: String, nullable: true },
    createdAt: { type: 'timestamptz', createDate: true },
    updatedAt: { type: 'timestamptz', updateDate: true },
  },
});
