import { PLAN_FLAGS } from '@atende/shared';
import { EntitySchema } from 'typeorm';

export interface Plan {
  id: number;
  name: string;
  users: number;
  connections: number;
  queues: number;
  value: string;
  useCampaigns: boolean;
  useSchedules: boolean;
  useInternalChat: boolean;
  useExternalApi: boolean;
  useKanban: boolean;
  useOpenAi: boolean;
  useIntegrations: boolean;
  useInternal: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** The flags' columns, one per PLAN_FLAGS entry (shared). */
export { PLAN_FLAGS };

export const PlanEntity = new EntitySchema<Plan>({
  name: 'Plan',
  tableName: 'plans',
  columns: {
    id: { type: Number, primary: true, generated: true },
    name: { type: String },
    users: { type: Number },
    connections: { type: Number },
    queues: { type: Number },
    value: { type: 'numeric' },
    ...Object.fromEntries(PLAN_FLAGS.map((flag) => [flag, { type: Boolean }])),
    createdAt: { type: 'timestamptz', createDate: true },
    updatedAt: { type: 'timestamptz', updateDate: true },
  },
});
