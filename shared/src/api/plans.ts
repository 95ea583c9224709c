import { z } from 'zod';
import { endpoint } from './endpoint.js';
import { toBoolean } from './liberal.js';
import { PLAN_FLAGS, type PlanFlag } from '../domain/plan-flags.js';
import { idParams, lineSchema, messageAnswer, pageQuery, wireDate, wireInt } from './common.js';

const count = z.coerce.number().int().min(0).max(100_000);
/** A flag in any old-client shape (`true`, `1`, `'true'`...), stored strictly. */
const inputFlag = z.preprocess(toBoolean, z.boolean());

/** A plan's fields without defaults: an update changes only what it names. */
const planFields = z.object({
  name: lineSchema(100).trim().min(2),
  users: count,
  connections: count,
  queues: count,
  value: z.coerce.number().min(0).max(1_000_000),
  ...(Object.fromEntries(PLAN_FLAGS.map((f) => [f, inputFlag])) as Record<
    PlanFlag,
    typeof inputFlag
  >),
});

/** A new plan: every flag defaults to on. */
export const planInput = planFields.extend(
  Object.fromEntries(PLAN_FLAGS.map((f) => [f, inputFlag.default(true)])) as Record<
    PlanFlag,
    z.ZodDefault<typeof inputFlag>
  >,
);
export type PlanInput = z.infer<typeof planInput>;
/** A change: absent fields stay as they are (no flag falls back to its default). */
export const planUpdate = planFields.partial();

const flag = z.boolean();
/** A plan as the routes answer it (value as a number; administration §3). */
export const planAnswer = z.object({
  id: wireInt,
  name: z.string(),
  users: wireInt,
  connections: wireInt,
  queues: wireInt,
  value: z.number(),
  useCampaigns: flag,
  useSchedules: flag,
  useInternalChat: flag,
  useExternalApi: flag,
  useKanban: flag,
  useOpenAi: flag,
  useIntegrations: flag,
  useInternal: flag,
  createdAt: wireDate,
  updatedAt: wireDate,
});
export type PlanAnswer = z.infer<typeof planAnswer>;

/** Plans: the public lists (sign-up) and the super user's CRUD. */
export const planEndpoints = {
  planList: endpoint({
    method: 'get',
    path: '/plans/list',
    summary: 'Every plan (no sign-in: the sign-up page)',
    tag: 'plans',
    access: 'public',
    response: z.array(planAnswer),
  }),
  planAll: endpoint({
    method: 'get',
    path: '/plans/all',
    summary: 'Every plan, as /plans/list (the Whaticket sign-up page calls this one)',
    tag: 'plans',
    access: 'public',
    response: z.array(planAnswer),
  }),
  listPlans: endpoint({
    method: 'get',
    path: '/plans',
    summary: 'A page of plans',
    tag: 'plans',
    access: 'super',
    query: pageQuery,
    response: z.object({ plans: z.array(planAnswer), count: wireInt, hasMore: z.boolean() }),
  }),
  showPlan: endpoint({
    method: 'get',
    path: '/plans/:id',
    summary: 'One plan',
    tag: 'plans',
    access: 'super',
    params: idParams,
    response: planAnswer,
  }),
  createPlan: endpoint({
    method: 'post',
    path: '/plans',
    summary: 'Creates a plan (names are unique)',
    tag: 'plans',
    access: 'super',
    body: planInput,
    status: 201,
    response: planAnswer,
  }),
  updatePlan: endpoint({
    method: 'put',
    path: '/plans/:id',
    summary: 'Changes a plan',
    tag: 'plans',
    access: 'super',
    params: idParams,
    body: planUpdate,
    response: planAnswer,
  }),
  deletePlan: endpoint({
    method: 'delete',
    path: '/plans/:id',
    summary: 'Deletes a plan no company uses',
    tag: 'plans',
    access: 'super',
    params: idParams,
    response: messageAnswer,
  }),
} as const;
