import { z } from 'zod';
import {
  idParams,
  messageAnswer,
  nameSchema,
  pageQuery,
  ref,
  textSchema,
  wireDate,
} from './common.js';
import { endpoint } from './endpoint.js';
import { idOrNone, looseBoolean, refOrNone, toIdOrNone } from './liberal.js';

/** Campaign status (secondary §4). */
export const CAMPAIGN_STATUSES = [
  'INATIVA',
  'PROGRAMADA',
  'EM_ANDAMENTO',
  'CANCELADA',
  'FINALIZADA',
] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** A campaign has 5 message variants and 5 confirmation messages (secondary §9). */
export const CAMPAIGN_VARIANTS = 5;
export const MESSAGE_FIELDS = ['message1', 'message2', 'message3', 'message4', 'message5'] as const;
export const CONFIRMATION_FIELDS = [
  'confirmationMessage1',
  'confirmationMessage2',
  'confirmationMessage3',
  'confirmationMessage4',
  'confirmationMessage5',
] as const;
/** The fields still editable while a campaign is CANCELADA (secondary §4). */
export const CAMPAIGN_MESSAGE_FIELDS = [
  ...MESSAGE_FIELDS,
  ...CONFIRMATION_FIELDS,
  'confirmation',
] as const;

/** A campaign is editable more than this long before its scheduled time (secondary §4, §9). */
export const CAMPAIGN_EDIT_LEAD_MS = 60 * 60_000;

/**
 * Whether a campaign may be edited (secondary §4): 'all' when INATIVA, or PROGRAMADA with its
 * time more than 1 hour ahead; 'messages' when CANCELADA; otherwise 'none'.
 */
export function campaignEditability(
  campaign: { status: string; scheduledAt: string | Date | null },
  now: Date,
): 'all' | 'messages' | 'none' {
  if (campaign.status === 'INATIVA') return 'all';
  if (campaign.status === 'PROGRAMADA') {
    const at = campaign.scheduledAt ? new Date(campaign.scheduledAt).getTime() : NaN;
    return at - now.getTime() > CAMPAIGN_EDIT_LEAD_MS ? 'all' : 'none';
  }
  if (campaign.status === 'CANCELADA') return 'messages';
  return 'none';
}

const messageText = textSchema(4_096).optional();

/** An optional date: `""`, `null` and `false` mean none (old clients). */
const optionalDate = z.preprocess(
  (v) => (v === '' || v === null || v === false ? null : v),
  z
    .union([z.string().trim().max(40), z.date()])
    .transform((v, ctx) => {
      const d = v instanceof Date ? v : new Date(v);
      if (Number.isNaN(d.getTime())) {
        ctx.addIssue({ code: 'custom', message: 'invalid date' });
        return z.NEVER;
      }
      return d.toISOString();
    })
    .nullable()
    .optional(),
);

/** Campaign fields (secondary §3, §5): name 2 to 50; variants and confirmations are text. */
export const campaignInput = z.object({
  name: nameSchema,
  message1: messageText,
  message2: messageText,
  message3: messageText,
  message4: messageText,
  message5: messageText,
  confirmationMessage1: messageText,
  confirmationMessage2: messageText,
  confirmationMessage3: messageText,
  confirmationMessage4: messageText,
  confirmationMessage5: messageText,
  confirmation: looseBoolean,
  scheduledAt: optionalDate,
  whatsappId: refOrNone('whatsapp'),
  contactListId: refOrNone('contactList'),
  /** A tag: its tickets' contacts are the audience. Old clients send 'Nenhuma' for none. */
  tagListId: z
    .preprocess((v) => (v === 'Nenhuma' ? null : toIdOrNone(v)), ref('tag').nullable())
    .optional(),
  /** A file list (checked against the company by the handler). */
  fileListId: idOrNone,
  /** Accepted from old clients and ignored: the server moves the status (docs/decisions.md). */
  status: z.unknown().optional(),
});
export type CampaignInput = z.infer<typeof campaignInput>;
export const campaignUpdate = campaignInput.partial();
export type CampaignUpdate = z.infer<typeof campaignUpdate>;

/** A recipient's state (issue 16). */
export const SHIPPING_STATES = [
  'queued',
  'sent',
  'delivered',
  'read',
  'replied',
  'failed',
  'skipped',
] as const;
export type ShippingState = (typeof SHIPPING_STATES)[number];
export const REPLY_KINDS = ['yes', 'no', 'stop', 'other'] as const;

const nullableDate = wireDate.nullable();

/** One recipient of a campaign: its state and timeline. */
export const campaignShippingAnswer = z.object({
  id: z.number().int(),
  campaignId: z.number().int(),
  number: z.string(),
  name: z.string(),
  email: z.string(),
  state: z.enum(SHIPPING_STATES),
  /** Why failed or skipped: opt-out, invalid-number, duplicate, or the send error. */
  reason: z.string().nullable(),
  variant: z.number().int().nullable(),
  message: z.string().nullable(),
  reply: z.enum(REPLY_KINDS).nullable(),
  replyText: z.string().nullable(),
  queuedAt: wireDate,
  confirmationRequestedAt: nullableDate,
  confirmedAt: nullableDate,
  sentAt: nullableDate,
  deliveredAt: nullableDate,
  readAt: nullableDate,
  repliedAt: nullableDate,
  failedAt: nullableDate,
});
export type CampaignShippingAnswer = z.infer<typeof campaignShippingAnswer>;

export const campaignCounters = z.object({
  total: z.number().int(),
  queued: z.number().int(),
  sent: z.number().int(),
  delivered: z.number().int(),
  read: z.number().int(),
  replied: z.number().int(),
  failed: z.number().int(),
  skipped: z.number().int(),
  confirmed: z.number().int(),
  optedOut: z.number().int(),
});
export type CampaignCounters = z.infer<typeof campaignCounters>;

export const campaignAnswer = z.object({
  id: z.number().int(),
  companyId: z.number().int(),
  name: z.string(),
  status: z.enum(CAMPAIGN_STATUSES),
  confirmation: z.boolean(),
  message1: z.string(),
  message2: z.string(),
  message3: z.string(),
  message4: z.string(),
  message5: z.string(),
  confirmationMessage1: z.string(),
  confirmationMessage2: z.string(),
  confirmationMessage3: z.string(),
  confirmationMessage4: z.string(),
  confirmationMessage5: z.string(),
  scheduledAt: nullableDate,
  completedAt: nullableDate,
  whatsappId: z.number().int().nullable(),
  contactListId: z.number().int().nullable(),
  tagListId: z.number().int().nullable(),
  fileListId: z.number().int().nullable(),
  mediaPath: z.string().nullable(),
  mediaName: z.string().nullable(),
  /** Why an EM_ANDAMENTO campaign is holding: 'disconnected' or 'failures' (null: running). */
  pausedReason: z.string().nullable(),
  pausedUntil: nullableDate,
  createdAt: wireDate,
  updatedAt: wireDate,
  contactList: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  whatsapp: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  counters: campaignCounters,
});
export type CampaignAnswer = z.infer<typeof campaignAnswer>;

/** GET /campaigns/:id: the campaign with its recipients (the report). */
export const campaignDetail = campaignAnswer.extend({
  shipping: z.array(campaignShippingAnswer),
});
export type CampaignDetail = z.infer<typeof campaignDetail>;

/** Campaign settings (secondary §3, §9): intervals in seconds, a count, custom variables. */
export const CAMPAIGN_INTERVAL_OPTIONS = [0, 5, 10, 15, 20] as const;
export const CAMPAIGN_LONGER_AFTER_OPTIONS = [
  0, 1, 5, 10, 15, 20, 30, 40, 60, 80, 100, 120,
] as const;
export const CAMPAIGN_GREATER_INTERVAL_OPTIONS = CAMPAIGN_LONGER_AFTER_OPTIONS;
export const CAMPAIGN_SETTING_DEFAULTS = {
  /** Seconds: the random interval between two messages of a campaign. */
  messageInterval: 20,
  /** Messages: after this many, the greater interval (0: never). */
  longerIntervalAfter: 20,
  /** Seconds: the greater interval. */
  greaterInterval: 60,
  variables: [] as { key: string; value: string }[],
};

const variableKey = z
  .string()
  .trim()
  .min(1)
  .max(40)
  .regex(/^[\p{L}\p{N}_]+$/u, 'letters, digits and _ only');
export const campaignVariable = z.object({ key: variableKey, value: textSchema(1_000) });
const oneOf = (options: readonly number[]) =>
  z.coerce
    .number()
    .int()
    .refine((v) => options.includes(v), `one of ${options.join(', ')}`);

export const campaignSettingsValues = z.object({
  messageInterval: oneOf(CAMPAIGN_INTERVAL_OPTIONS),
  longerIntervalAfter: oneOf(CAMPAIGN_LONGER_AFTER_OPTIONS),
  greaterInterval: oneOf(CAMPAIGN_GREATER_INTERVAL_OPTIONS),
  variables: z.array(campaignVariable).max(100),
});
export type CampaignSettingsValues = z.infer<typeof campaignSettingsValues>;
export const campaignSettingsInput = z.object({ settings: campaignSettingsValues.partial() });

/** A stored setting as Whaticket clients read it: `value` is a JSON text. */
export const campaignSettingAnswer = z.object({
  id: z.number().int(),
  companyId: z.number().int(),
  key: z.enum(['messageInterval', 'longerIntervalAfter', 'greaterInterval', 'variables']),
  value: z.string(),
});

const withRecord = z.object({ mensagem: z.string(), record: campaignAnswer });

/** Campaigns (secondary §7); every call needs the plan flag useCampaigns. */
export const campaignEndpoints = {
  listCampaigns: endpoint({
    method: 'get',
    path: '/campaigns',
    summary: 'A page (20) of campaigns, newest first',
    tag: 'campaigns',
    query: pageQuery,
    response: z.object({
      records: z.array(campaignAnswer),
      count: z.number().int(),
      hasMore: z.boolean(),
    }),
    plan: 'useCampaigns',
  }),
  showCampaign: endpoint({
    method: 'get',
    path: '/campaigns/:id',
    summary: 'One campaign with its recipients and counters (the report)',
    tag: 'campaigns',
    params: idParams,
    response: campaignDetail,
    plan: 'useCampaigns',
  }),
  createCampaign: endpoint({
    method: 'post',
    path: '/campaigns',
    summary: 'Creates a campaign (PROGRAMADA when it has a time, else INATIVA)',
    tag: 'campaigns',
    access: 'admin',
    body: campaignInput,
    status: 201,
    response: campaignAnswer,
    plan: 'useCampaigns',
  }),
  updateCampaign: endpoint({
    method: 'put',
    path: '/campaigns/:id',
    summary: 'Changes a campaign while it is editable (409 otherwise)',
    tag: 'campaigns',
    access: 'admin',
    params: idParams,
    body: campaignUpdate,
    response: campaignAnswer,
    plan: 'useCampaigns',
  }),
  deleteCampaign: endpoint({
    method: 'delete',
    path: '/campaigns/:id',
    summary: 'Deletes a campaign that is not running, with its recipients',
    tag: 'campaigns',
    access: 'admin',
    params: idParams,
    response: messageAnswer,
    plan: 'useCampaigns',
  }),
  attachCampaignMedia: endpoint({
    method: 'post',
    path: '/campaigns/:id/media-upload',
    summary: "Sets the campaign's file (multipart: file)",
    tag: 'campaigns',
    access: 'admin',
    params: idParams,
    multipart: true,
    response: withRecord,
    plan: 'useCampaigns',
  }),
  removeCampaignMedia: endpoint({
    method: 'delete',
    path: '/campaigns/:id/media-upload',
    summary: "Removes the campaign's file",
    tag: 'campaigns',
    access: 'admin',
    params: idParams,
    response: withRecord,
    plan: 'useCampaigns',
  }),
  cancelCampaign: endpoint({
    method: 'post',
    path: '/campaigns/:id/cancel',
    summary: 'Cancels a running or scheduled campaign (CANCELADA)',
    tag: 'campaigns',
    access: 'admin',
    params: idParams,
    response: campaignAnswer,
    plan: 'useCampaigns',
  }),
  restartCampaign: endpoint({
    method: 'post',
    path: '/campaigns/:id/restart',
    summary: 'Restarts a cancelled campaign where it stopped (EM_ANDAMENTO)',
    tag: 'campaigns',
    access: 'admin',
    params: idParams,
    response: campaignAnswer,
    plan: 'useCampaigns',
  }),
  listCampaignSettings: endpoint({
    method: 'get',
    path: '/campaign-settings',
    summary: "The company's campaign settings (value as JSON text)",
    tag: 'campaigns',
    response: z.array(campaignSettingAnswer),
    plan: 'useCampaigns',
  }),
  saveCampaignSettings: endpoint({
    method: 'post',
    path: '/campaign-settings',
    summary: 'Saves campaign settings; a custom variable is added only if new',
    tag: 'campaigns',
    access: 'admin',
    body: campaignSettingsInput,
    response: z.array(campaignSettingAnswer),
    plan: 'useCampaigns',
  }),
} as const;
