// Campaigns: the rows as the routes answer them, settings, the suppression list, message
// rendering and the campaign's own pacing. The dispatcher is in campaigns.dispatch.ts.
import {
  CAMPAIGN_SETTING_DEFAULTS,
  CONFIRMATION_FIELDS,
  MESSAGE_FIELDS,
  campaignSettingsValues,
  type CampaignAnswer,
  type CampaignCounters,
  type CampaignSettingsValues,
  type CampaignShippingAnswer,
} from '@atende/shared';
import type { EntityManager } from 'typeorm';
import type { AppContext } from '../../context.js';
import { sendClock } from '../governor/index.js';

type Db = Pick<EntityManager, 'query'>;

// The campaign clock: the send governor's (tests replace both with one test clock). The durable
// job reads it without an app, so the last app that set a clock is the one it reads.
let clockApp: AppContext | undefined;
/** Binds the campaign clock to this app's send clock (the worker does at start; tests too). */
export function useCampaignClockOf(app: AppContext): void {
  clockApp = app;
}
export const campaignNow = (): Date => (clockApp ? sendClock(clockApp).now() : new Date());

/** A campaign row as stored. */
export interface CampaignRow {
  id: number;
  companyId: number;
  name: string;
  status: CampaignAnswer['status'];
  confirmation: boolean;
  message1: string;
  message2: string;
  message3: string;
  message4: string;
  message5: string;
  confirmationMessage1: string;
  confirmationMessage2: string;
  confirmationMessage3: string;
  confirmationMessage4: string;
  confirmationMessage5: string;
  scheduledAt: Date | null;
  completedAt: Date | null;
  whatsappId: number | null;
  contactListId: number | null;
  tagListId: number | null;
  fileListId: number | null;
  mediaPath: string | null;
  mediaName: string | null;
  rotation: number;
  lastSentAt: Date | null;
  nextGapMs: number;
  sinceLongPause: number;
  pausedReason: string | null;
  pausedUntil: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

const iso = (d: Date | string | null) => (d == null ? null : new Date(d).toISOString());

const COUNTERS_SQL = `
  SELECT "campaignId",
         count(*)::int AS total,
         count(*) FILTER (WHERE state = 'queued')::int AS queued,
         count(*) FILTER (WHERE "sentAt" IS NOT NULL OR "confirmationRequestedAt" IS NOT NULL)::int AS sent,
         count(*) FILTER (WHERE "deliveredAt" IS NOT NULL)::int AS delivered,
         count(*) FILTER (WHERE "readAt" IS NOT NULL)::int AS read,
         count(*) FILTER (WHERE "repliedAt" IS NOT NULL)::int AS replied,
         count(*) FILTER (WHERE state = 'failed')::int AS failed,
         count(*) FILTER (WHERE state = 'skipped')::int AS skipped,
         count(*) FILTER (WHERE "confirmedAt" IS NOT NULL)::int AS confirmed,
         count(*) FILTER (WHERE reply = 'stop' OR reason = 'opt-out')::int AS "optedOut"
    FROM campaign_shippings WHERE "companyId" = $1 AND "campaignId" = ANY($2::int[])
   GROUP BY "campaignId"`;

const EMPTY_COUNTERS: CampaignCounters = {
  total: 0,
  queued: 0,
  sent: 0,
  delivered: 0,
  read: 0,
  replied: 0,
  failed: 0,
  skipped: 0,
  confirmed: 0,
  optedOut: 0,
};

const CAMPAIGN_SQL = `
  SELECT c.*, cl.name AS "contactListName", w.name AS "whatsappName"
    FROM campaigns c
    LEFT JOIN contact_lists cl ON cl.id = c."contactListId" AND cl."companyId" = c."companyId"
    LEFT JOIN whatsapps w ON w.id = c."whatsappId" AND w."companyId" = c."companyId"`;

type JoinedRow = CampaignRow & { contactListName: string | null; whatsappName: string | null };

function answerOf(row: JoinedRow, counters: CampaignCounters): CampaignAnswer {
  return {
    id: row.id,
    companyId: row.companyId,
    name: row.name,
    status: row.status,
    confirmation: row.confirmation,
    message1: row.message1,
    message2: row.message2,
    message3: row.message3,
    message4: row.message4,
    message5: row.message5,
    confirmationMessage1: row.confirmationMessage1,
    confirmationMessage2: row.confirmationMessage2,
    confirmationMessage3: row.confirmationMessage3,
    confirmationMessage4: row.confirmationMessage4,
    confirmationMessage5: row.confirmationMessage5,
    scheduledAt: iso(row.scheduledAt),
    completedAt: iso(row.completedAt),
    whatsappId: row.whatsappId,
    contactListId: row.contactListId,
    tagListId: row.tagListId,
    fileListId: row.fileListId,
    mediaPath: row.mediaPath,
    mediaName: row.mediaName,
    pausedReason: row.pausedReason,
    pausedUntil: iso(row.pausedUntil),
    createdAt: iso(row.createdAt)!,
    updatedAt: iso(row.updatedAt)!,
    contactList:
      row.contactListId && row.contactListName
        ? { id: row.contactListId, name: row.contactListName }
        : null,
    whatsapp:
      row.whatsappId && row.whatsappName ? { id: row.whatsappId, name: row.whatsappName } : null,
    counters,
  };
}

/** Campaigns of a company as the routes answer them (with counters), in the order given. */
export async function loadCampaigns(
  db: Db,
  companyId: number,
  ids: number[],
): Promise<CampaignAnswer[]> {
  if (!ids.length) return [];
  const rows = (await db.query(
    `${CAMPAIGN_SQL} WHERE c."companyId" = $1 AND c.id = ANY($2::int[])`,
    [companyId, ids],
  )) as JoinedRow[];
  const counts = (await db.query(COUNTERS_SQL, [companyId, ids])) as (CampaignCounters & {
    campaignId: number;
  })[];
  const byId = new Map(rows.map((r) => [r.id, r]));
  const countOf = new Map(counts.map(({ campaignId, ...c }) => [campaignId, c]));
  return ids
    .map((id) => byId.get(id))
    .filter((r): r is JoinedRow => !!r)
    .map((r) => answerOf(r, countOf.get(r.id) ?? EMPTY_COUNTERS));
}

export async function loadCampaign(
  db: Db,
  companyId: number,
  id: number,
): Promise<CampaignAnswer | undefined> {
  return (await loadCampaigns(db, companyId, [id]))[0];
}

/** The stored row, locked when `lock` (inside a transaction). */
export async function campaignRow(
  db: Db,
  companyId: number,
  id: number,
  lock = false,
): Promise<CampaignRow | undefined> {
  const [row] = (await db.query(
    `SELECT * FROM campaigns WHERE "companyId" = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`,
    [companyId, id],
  )) as CampaignRow[];
  return row;
}

interface ShippingRow {
  id: number;
  campaignId: number;
  number: string;
  name: string;
  email: string;
  state: CampaignShippingAnswer['state'];
  reason: string | null;
  variant: number | null;
  message: string | null;
  reply: CampaignShippingAnswer['reply'];
  replyText: string | null;
  queuedAt: Date;
  confirmationRequestedAt: Date | null;
  confirmedAt: Date | null;
  sentAt: Date | null;
  deliveredAt: Date | null;
  readAt: Date | null;
  repliedAt: Date | null;
  failedAt: Date | null;
}

export const shippingAnswer = (r: ShippingRow): CampaignShippingAnswer => ({
  id: r.id,
  campaignId: r.campaignId,
  number: r.number,
  name: r.name,
  email: r.email,
  state: r.state,
  reason: r.reason,
  variant: r.variant,
  message: r.message,
  reply: r.reply,
  replyText: r.replyText,
  queuedAt: iso(r.queuedAt)!,
  confirmationRequestedAt: iso(r.confirmationRequestedAt),
  confirmedAt: iso(r.confirmedAt),
  sentAt: iso(r.sentAt),
  deliveredAt: iso(r.deliveredAt),
  readAt: iso(r.readAt),
  repliedAt: iso(r.repliedAt),
  failedAt: iso(r.failedAt),
});

const SHIPPING_COLUMNS = `id, "campaignId", number, name, email, state, reason, variant, message,
  reply, "replyText", "queuedAt", "confirmationRequestedAt", "confirmedAt", "sentAt",
  "deliveredAt", "readAt", "repliedAt", "failedAt"`;

export async function loadShippings(
  db: Db,
  companyId: number,
  campaignId: number,
): Promise<CampaignShippingAnswer[]> {
  const rows = (await db.query(
    `SELECT ${SHIPPING_COLUMNS} FROM campaign_shippings
      WHERE "companyId" = $1 AND "campaignId" = $2 ORDER BY id`,
    [companyId, campaignId],
  )) as ShippingRow[];
  return rows.map(shippingAnswer);
}

export async function loadShipping(
  db: Db,
  companyId: number,
  id: number,
): Promise<CampaignShippingAnswer | undefined> {
  const [row] = (await db.query(
    `SELECT ${SHIPPING_COLUMNS} FROM campaign_shippings WHERE "companyId" = $1 AND id = $2`,
    [companyId, id],
  )) as ShippingRow[];
  return row && shippingAnswer(row);
}

/** Tells the company's clients a campaign changed (its row and counters). */
export async function emitCampaign(
  app: AppContext,
  companyId: number,
  id: number,
  action: 'create' | 'update' = 'update',
): Promise<void> {
  const record = await loadCampaign(app.ds, companyId, id);
  if (record) app.realtime.toCompany(companyId, 'campaign', { action, record, id });
}

/** Tells the company's clients one recipient moved (the report's timeline), and the counters. */
export async function emitShipping(
  app: AppContext,
  companyId: number,
  shippingId: number,
): Promise<void> {
  const shipping = await loadShipping(app.ds, companyId, shippingId);
  if (!shipping) return;
  app.realtime.toCompany(companyId, 'campaignShipping', {
    action: 'update',
    campaignId: shipping.campaignId,
    shipping,
  });
  await emitCampaign(app, companyId, shipping.campaignId);
}

// ---- settings ----

export type CampaignSettings = CampaignSettingsValues;
export const SETTING_KEYS = [
  'messageInterval',
  'longerIntervalAfter',
  'greaterInterval',
  'variables',
] as const;

/** The company's settings, each key defaulting to secondary §9; a stored value that no longer
 * parses falls back to its default. */
export async function campaignSettings(db: Db, companyId: number): Promise<CampaignSettings> {
  const rows = (await db.query(`SELECT key, value FROM campaign_settings WHERE "companyId" = $1`, [
    companyId,
  ])) as { key: string; value: string }[];
  const out: CampaignSettings = { ...CAMPAIGN_SETTING_DEFAULTS, variables: [] };
  for (const { key, value } of rows) {
    if (!(SETTING_KEYS as readonly string[]).includes(key)) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      continue;
    }
    const schema = campaignSettingsValues.shape[key as keyof CampaignSettings];
    const ok = schema.safeParse(parsed);
    if (ok.success) (out as Record<string, unknown>)[key] = ok.data;
  }
  return out;
}

// ---- numbers and the suppression list ----

/**
 * A number in its canonical form (digits; a Brazilian mobile in its 9-digit form, so the two
 * spellings of one phone are one), or undefined when it cannot be a phone number.
 */
export function canonicalNumber(raw: string): string | undefined {
  const digits = raw.replace(/\D/g, '');
  if (digits.length < 8 || digits.length > 20) return undefined;
  // 55 + DDD (2) + 8 digits starting 6-9: the old mobile form without the 9th digit.
  if (digits.startsWith('55') && digits.length === 12 && /[6-9]/.test(digits[4]!)) {
    return `${digits.slice(0, 4)}9${digits.slice(4)}`;
  }
  return digits;
}

/**
 * Whether a number asked to stop receiving bulk messages from the company. Every bulk path
 * (campaigns, schedules, the external API) checks it when it queues and again when it sends.
 */
export async function isSuppressed(db: Db, companyId: number, number: string): Promise<boolean> {
  const canonical = canonicalNumber(number);
  if (!canonical) return false;
  const rows = (await db.query(
    `SELECT 1 FROM campaign_suppressions WHERE "companyId" = $1 AND number = $2`,
    [companyId, canonical],
  )) as unknown[];
  return rows.length > 0;
}

/** Puts a number on the company's suppression list (idempotent). */
export async function suppressNumber(
  db: Db,
  companyId: number,
  number: string,
  reason: string,
): Promise<void> {
  const canonical = canonicalNumber(number);
  if (!canonical) return;
  await db.query(
    `INSERT INTO campaign_suppressions ("companyId", number, reason) VALUES ($1, $2, $3)
     ON CONFLICT DO NOTHING`,
    [companyId, canonical, reason],
  );
}

// ---- replies ----

const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/[\s.!?,;:)(]+/g, ' ')
    .trim();

/** Whole-message answers (accents, case and punctuation ignored). */
export const STOP_WORDS = ['PARE', 'SAIR', 'STOP', 'CANCELAR'];
export const YES_WORDS = ['SIM', 'S', '1', 'OK', 'CONFIRMO', 'CONFIRMAR', 'YES', 'SI'];
export const NO_WORDS = ['NAO', 'N', '2', 'NO', 'NAO QUERO'];

/** A reply to a campaign: yes, no, stop (opt-out) or other. */
export function classifyReply(text: string): 'yes' | 'no' | 'stop' | 'other' {
  const f = fold(text);
  if (STOP_WORDS.includes(f)) return 'stop';
  if (YES_WORDS.includes(f)) return 'yes';
  if (NO_WORDS.includes(f)) return 'no';
  return 'other';
}

// ---- messages ----

export interface Recipient {
  name: string;
  number: string;
  email: string;
}

/** Fills {nome}, {numero}, {email} and the company's custom variables ({key}). */
export function renderMessage(
  template: string,
  recipient: Recipient,
  variables: { key: string; value: string }[],
): string {
  const values = new Map<string, string>([
    ['nome', recipient.name],
    ['numero', recipient.number],
    ['email', recipient.email],
  ]);
  for (const v of variables) if (!values.has(v.key)) values.set(v.key, v.value);
  return template.replace(/\{([\p{L}\p{N}_-]+)\}/gu, (whole, key: string) =>
    values.has(key) ? values.get(key)! : whole,
  );
}

/** The campaign's non-empty variants, in order, with their numbers (1 to 5). */
export function variantsOf(c: CampaignRow): { n: number; text: string }[] {
  return MESSAGE_FIELDS.map((f, i) => ({ n: i + 1, text: c[f].trim() })).filter((v) => v.text);
}

export function confirmationsOf(c: CampaignRow): { n: number; text: string }[] {
  return CONFIRMATION_FIELDS.map((f, i) => ({ n: i + 1, text: c[f].trim() })).filter((v) => v.text);
}

// ---- pacing ----

/**
 * The campaign's own wait after a send (secondary §9, in seconds): a random interval drawn in
 * [messageInterval / 2, messageInterval], and after every `longerIntervalAfter` sends the
 * greater interval instead (when longer). The connection's send governor adds its own floor,
 * gap and long pause on top: a campaign can make pacing slower, never faster.
 */
export function nextGap(
  settings: Pick<CampaignSettings, 'messageInterval' | 'longerIntervalAfter' | 'greaterInterval'>,
  sentSinceLongPause: number,
  random: () => number = Math.random,
): { gapMs: number; long: boolean } {
  const interval = settings.messageInterval * 1_000;
  const gapMs = Math.round(interval / 2 + random() * (interval / 2));
  const greater = settings.greaterInterval * 1_000;
  if (settings.longerIntervalAfter > 0 && sentSinceLongPause >= settings.longerIntervalAfter) {
    return { gapMs: Math.max(gapMs, greater), long: true };
  }
  return { gapMs, long: false };
}
