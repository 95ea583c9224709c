import { z } from 'zod';
import { lineSchema } from './common.js';

const count = z.coerce.number().int().min(0).max(100_000);

export const planInput = z.object({
  name: lineSchema(100).trim().min(2),
  users: count,
  connections: count,
  queues: count,
  value: z.coerce.number().min(0).max(1_000_000),
  useCampaigns: z.boolean().default(true),
  useSchedules: z.boolean().default(true),
  useInternalChat: z.boolean().default(true),
  useExternalApi: z.boolean().default(true),
  useKanban: z.boolean().default(true),
  useOpenAi: z.boolean().default(true),
  useIntegrations: z.boolean().default(true),
  useInternal: z.boolean().default(true),
});
export type PlanInput = z.infer<typeof planInput>;
export const planUpdate = planInput.partial();
