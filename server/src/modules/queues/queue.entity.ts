import { EntitySchema } from 'typeorm';
import type { ScheduleEntry } from '@atende/shared';

export interface Queue {
  id: number;
  companyId: number;
  name: string;
  color: string;
  greetingMessage: string;
  outOfHoursMessage: string;
  orderQueue: number | null;
  schedules: ScheduleEntry[];
  mediaPath: string | null;
  mediaName: string | null;
  promptId: number | null;
  integrationId: number | null;
  createdAt: Date;
  updatedAt: Date;
}

export const QueueEntity = new EntitySchema<Queue>({
  name: 'Queue',
  tableName: 'queues',
  columns: {
    id: { type: Number, primary: true, generated: true },
    companyId: { type: Number },
    name: { type: String },
    color: { type: String },
    greetingMessage: { type: String },
    outOfHoursMessage: { type: String },
    orderQueue: { type: Number, nullable: true },
    schedules: { type: 'jsonb' },
    mediaPath: { type: String, nullable: true },
    mediaName: { type: String, nullable: true },
    promptId: { type: Number, nullable: true },
    integrationId: { type: Number, nullable: true },
    createdAt: { type: 'timestamptz', createDate: true },
    updatedAt: { type: 'timestamptz', updateDate: true },
  },
});
