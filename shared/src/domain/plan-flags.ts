/**
 * The plan switches that turn a feature's pages and routes on (administration §3, core §2): a
 * company whose plan lacks one gets 403 `ERR_PLAN_FEATURE_DISABLED` on that feature's routes and
 * does not see its menu item.
 */
export const FEATURE_PLAN_FLAGS = [
  'useCampaigns',
  'useSchedules',
  'useInternalChat',
  'useExternalApi',
  'useKanban',
  'useOpenAi',
  'useIntegrations',
] as const;
export type FeaturePlanFlag = (typeof FEATURE_PLAN_FLAGS)[number];

/** Every flag a plan stores: the feature switches and `useInternal` (no page of its own). */
export const PLAN_FLAGS = [...FEATURE_PLAN_FLAGS, 'useInternal'] as const;
export type PlanFlag = (typeof PLAN_FLAGS)[number];
export type PlanFlags = Record<PlanFlag, boolean>;
