import { Router } from 'express';
import {
  CAMPAIGN_MESSAGE_FIELDS,
  CONFIRMATION_FIELDS,
  MESSAGE_FIELDS,
  campaignEditability,
  campaignEndpoints as api,
  type CampaignUpdate,
} from '@atende/shared';
import type { EntityManager } from 'typeorm';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { serve } from '../../http/route.js';
import { receiveFile, removeAttachment, storeAttachment } from '../queues/index.js';
import { buildRecipients, cancelStep, scheduleStep } from './campaigns.dispatch.js';
import {
  SETTING_KEYS,
  campaignNow,
  campaignRow,
  campaignSettings,
  loadCampaign,
  loadCampaigns,
  loadShippings,
  useCampaignClockOf,
  type CampaignRow,
} from './campaigns.service.js';

export const CAMPAIGNS_PAGE_SIZE = 20;

const FIELDS = [
  'name',
  ...MESSAGE_FIELDS,
  ...CONFIRMATION_FIELDS,
  'confirmation',
  'scheduledAt',
  'whatsappId',
  'contactListId',
  'tagListId',
  'fileListId',
] as const;
type Field = (typeof FIELDS)[number];

/** The references a campaign names, checked against the caller's company. */
async function checkReferences(db: EntityManager, companyId: number, body: CampaignUpdate) {
  const exists = async (table: string, id: number) =>
    (
      (await db.query(`SELECT 1 FROM ${table} WHERE id = $1 AND "companyId" = $2`, [
        id,
        companyId,
      ])) as unknown[]
    ).length > 0;
  if (body.contactListId && !(await exists('contact_lists', body.contactListId))) {
    throw new AppError('ERR_CAMPAIGN_CONTACT_LIST_NOT_FOUND');
  }
  if (body.fileListId && !(await exists('file_lists', body.fileListId))) {
    throw new AppError('ERR_CAMPAIGN_FILE_LIST_NOT_FOUND');
  }
  if (body.tagListId && !(await exists('tags', body.tagListId))) {
    throw new AppError('ERR_CAMPAIGN_TAG_NOT_FOUND');
  }
}

/** A campaign with a time must be able to run: a connection, an audience, a message. */
function checkRunnable(c: Pick<CampaignRow, Field>): void {
  const hasMessage = MESSAGE_FIELDS.some((f) => c[f]?.trim());
  const hasConfirmation = !c.confirmation || CONFIRMATION_FIELDS.some((f) => c[f]?.trim());
  if (!c.whatsappId || !(c.contactListId || c.tagListId) || !hasMessage || !hasConfirmation) {
    throw new AppError('ERR_CAMPAIGN_INCOMPLETE');
  }
}

/** The stored values a body sets (undefined fields keep theirs). */
function valuesOf(body: CampaignUpdate): Partial<Record<Field, unknown>> {
  const out: Partial<Record<Field, unknown>> = {};
  for (const f of FIELDS) {
    const v = body[f];
    if (v === undefined) continue;
    if ((MESSAGE_FIELDS as readonly string[]).includes(f) || f.startsWith('confirmationMessage')) {
      out[f] = (v as string | null) ?? '';
    } else if (f === 'confirmation') out[f] = v ?? false;
    else out[f] = v;
  }
  return out;
}

const same = (a: unknown, b: unknown) => {
  const norm = (v: unknown) => (v instanceof Date ? v.toISOString() : (v ?? null));
  return norm(a) === norm(b) || (a != null && b != null && String(norm(a)) === String(norm(b)));
};

export function campaignsRoutes(app: AppContext): Router {
  const router = Router();
  useCampaignClockOf(app);

  serve(router, app, api.listCampaigns, async ({ scope, query }) => {
    const like = `%${query.searchParam}%`;
    const rows = (await app.ds.query(
      `SELECT id, count(*) OVER ()::int AS total FROM campaigns
        WHERE "companyId" = $1 AND ($2 = '%%' OR name ILIKE $2)
        ORDER BY id DESC LIMIT $3 OFFSET $4`,
      [scope.companyId, like, CAMPAIGNS_PAGE_SIZE, (query.pageNumber - 1) * CAMPAIGNS_PAGE_SIZE],
    )) as { id: number; total: number }[];
    const count = rows[0]?.total ?? 0;
    return {
      records: await loadCampaigns(
        app.ds,
        scope.companyId,
        rows.map((r) => r.id),
      ),
      count,
      hasMore: count > query.pageNumber * CAMPAIGNS_PAGE_SIZE,
    };
  });

  serve(router, app, api.showCampaign, async ({ scope, params }) => {
    const campaign = await loadCampaign(app.ds, scope.companyId, params.id);
    if (!campaign) throw new AppError('ERR_NO_CAMPAIGN_FOUND');
    return { ...campaign, shipping: await loadShippings(app.ds, scope.companyId, params.id) };
  });

  serve(router, app, api.createCampaign, async ({ scope, body }) => {
    const companyId = scope.companyId;
    const id = await app.ds.transaction(async (tx) => {
      await checkReferences(tx, companyId, body);
      const values = valuesOf(body);
      const status = body.scheduledAt ? 'PROGRAMADA' : 'INATIVA';
      if (status === 'PROGRAMADA') checkRunnable(values as Pick<CampaignRow, Field>);
      const cols = Object.keys(values);
      const [row] = (await tx.query(
        `INSERT INTO campaigns ("companyId", status${cols.map((c) => `, "${c}"`).join('')})
         VALUES ($1, $2${cols.map((_, i) => `, $${i + 3}`).join('')}) RETURNING id`,
        [companyId, status, ...cols.map((c) => values[c as Field])],
      )) as { id: number }[];
      return row!.id;
    });
    const campaign = (await loadCampaign(app.ds, companyId, id))!;
    if (campaign.status === 'PROGRAMADA') {
      await scheduleStep(app, companyId, id, new Date(campaign.scheduledAt!));
    }
    app.realtime.toCompany(companyId, 'campaign', { action: 'create', record: campaign, id });
    return campaign;
  });

  serve(router, app, api.updateCampaign, async ({ scope, params, body }) => {
    const companyId = scope.companyId;
    const status = await app.ds.transaction(async (tx) => {
      const row = await campaignRow(tx, companyId, params.id, true);
      if (!row) throw new AppError('ERR_NO_CAMPAIGN_FOUND');
      const editable = campaignEditability(row, campaignNow());
      const values = valuesOf(body);
      if (editable === 'none') throw new AppError('ERR_CAMPAIGN_NOT_EDITABLE');
      if (editable === 'messages') {
        // Old clients send the whole form: only a change outside the messages is refused.
        for (const [k, v] of Object.entries(values)) {
          if ((CAMPAIGN_MESSAGE_FIELDS as readonly string[]).includes(k)) continue;
          if (!same(v, row[k as Field])) throw new AppError('ERR_CAMPAIGN_NOT_EDITABLE');
          delete values[k as Field];
        }
      }
      await checkReferences(tx, companyId, body);
      const merged = { ...row, ...values } as CampaignRow;
      let next = row.status;
      if (editable === 'all') {
        next = merged.scheduledAt ? 'PROGRAMADA' : 'INATIVA';
        if (next === 'PROGRAMADA') checkRunnable(merged);
      }
      const cols = Object.keys(values);
      await tx.query(
        `UPDATE campaigns SET status = $3, "updatedAt" = now()${cols
          .map((c, i) => `, "${c}" = $${i + 4}`)
          .join('')} WHERE id = $1 AND "companyId" = $2`,
        [params.id, companyId, next, ...cols.map((c) => values[c as Field])],
      );
      return { next, scheduledAt: merged.scheduledAt };
    });
    if (status.next === 'PROGRAMADA') {
      await scheduleStep(app, companyId, params.id, new Date(status.scheduledAt!));
    } else if (status.next === 'INATIVA') await cancelStep(app, params.id);
    const campaign = (await loadCampaign(app.ds, companyId, params.id))!;
    app.realtime.toCompany(companyId, 'campaign', {
      action: 'update',
      record: campaign,
      id: campaign.id,
    });
    return campaign;
  });

  serve(router, app, api.deleteCampaign, async ({ scope, params }) => {
    const companyId = scope.companyId;
    const row = await app.ds.transaction(async (tx) => {
      const found = await campaignRow(tx, companyId, params.id, true);
      if (!found) throw new AppError('ERR_NO_CAMPAIGN_FOUND');
      if (found.status === 'EM_ANDAMENTO') throw new AppError('ERR_CAMPAIGN_RUNNING');
      await tx.query('DELETE FROM campaigns WHERE id = $1 AND "companyId" = $2', [
        params.id,
        companyId,
      ]);
      return found;
    });
    await cancelStep(app, params.id);
    await removeAttachment(app, companyId, row.mediaPath);
    app.realtime.toCompany(companyId, 'campaign', { action: 'delete', id: params.id });
    return { message: 'Campaign deleted' };
  });

  /** The file is a message field: allowed while the messages are editable. */
  async function editableForMedia(companyId: number, id: number): Promise<CampaignRow> {
    const row = await campaignRow(app.ds, companyId, id);
    if (!row) throw new AppError('ERR_NO_CAMPAIGN_FOUND');
    if (campaignEditability(row, campaignNow()) === 'none') {
      throw new AppError('ERR_CAMPAIGN_NOT_EDITABLE');
    }
    return row;
  }

  serve(router, app, api.attachCampaignMedia, async ({ scope, params, req, res }) => {
    const before = await editableForMedia(scope.companyId, params.id);
    const file = await receiveFile(app, req, res);
    const attachment = await storeAttachment(app, scope.companyId, file);
    await app.ds.query(
      `UPDATE campaigns SET "mediaPath" = $3, "mediaName" = $4, "updatedAt" = now()
        WHERE id = $1 AND "companyId" = $2`,
      [params.id, scope.companyId, attachment.mediaPath, attachment.mediaName],
    );
    await removeAttachment(app, scope.companyId, before.mediaPath);
    const record = (await loadCampaign(app.ds, scope.companyId, params.id))!;
    app.realtime.toCompany(scope.companyId, 'campaign', {
      action: 'update',
      record,
      id: record.id,
    });
    return { mensagem: 'Arquivo Anexado', record };
  });

  serve(router, app, api.removeCampaignMedia, async ({ scope, params }) => {
    const before = await editableForMedia(scope.companyId, params.id);
    await app.ds.query(
      `UPDATE campaigns SET "mediaPath" = NULL, "mediaName" = NULL, "updatedAt" = now()
        WHERE id = $1 AND "companyId" = $2`,
      [params.id, scope.companyId],
    );
    await removeAttachment(app, scope.companyId, before.mediaPath);
    const record = (await loadCampaign(app.ds, scope.companyId, params.id))!;
    app.realtime.toCompany(scope.companyId, 'campaign', {
      action: 'update',
      record,
      id: record.id,
    });
    return { mensagem: 'Arquivo excluído', record };
  });

  serve(router, app, api.cancelCampaign, async ({ scope, params }) => {
    const companyId = scope.companyId;
    await app.ds.transaction(async (tx) => {
      const row = await campaignRow(tx, companyId, params.id, true);
      if (!row) throw new AppError('ERR_NO_CAMPAIGN_FOUND');
      if (row.status !== 'EM_ANDAMENTO' && row.status !== 'PROGRAMADA') {
        throw new AppError('ERR_CAMPAIGN_NOT_CANCELLABLE');
      }
      await tx.query(
        `UPDATE campaigns SET status = 'CANCELADA', "pausedReason" = NULL, "pausedUntil" = NULL,
                "updatedAt" = now() WHERE id = $1`,
        [params.id],
      );
    });
    await cancelStep(app, params.id);
    const record = (await loadCampaign(app.ds, companyId, params.id))!;
    app.realtime.toCompany(companyId, 'campaign', { action: 'update', record, id: record.id });
    return record;
  });

  serve(router, app, api.restartCampaign, async ({ scope, params }) => {
    const companyId = scope.companyId;
    await app.ds.transaction(async (tx) => {
      const row = await campaignRow(tx, companyId, params.id, true);
      if (!row) throw new AppError('ERR_NO_CAMPAIGN_FOUND');
      if (row.status !== 'CANCELADA') throw new AppError('ERR_CAMPAIGN_NOT_RESTARTABLE');
      checkRunnable(row);
      // Cancelled before it started: its recipients are built now.
      await buildRecipients(tx, row);
      await tx.query(
        `UPDATE campaigns SET status = 'EM_ANDAMENTO', "completedAt" = NULL, "pausedReason" = NULL,
                "pausedUntil" = NULL, "updatedAt" = now() WHERE id = $1`,
        [params.id],
      );
    });
    await scheduleStep(app, companyId, params.id, campaignNow());
    const record = (await loadCampaign(app.ds, companyId, params.id))!;
    app.realtime.toCompany(companyId, 'campaign', { action: 'update', record, id: record.id });
    return record;
  });

  const settingsAnswer = async (companyId: number) => {
    const values = await campaignSettings(app.ds, companyId);
    const stored = (await app.ds.query(
      `SELECT id, key FROM campaign_settings WHERE "companyId" = $1`,
      [companyId],
    )) as { id: number; key: string }[];
    const idOf = new Map(stored.map((r) => [r.key, r.id]));
    return SETTING_KEYS.map((key) => ({
      id: idOf.get(key) ?? 0,
      companyId,
      key,
      value: JSON.stringify(values[key]),
    }));
  };

  serve(router, app, api.listCampaignSettings, async ({ scope }) =>
    settingsAnswer(scope.companyId),
  );

  serve(router, app, api.saveCampaignSettings, async ({ scope, body }) => {
    const companyId = scope.companyId;
    const given = { ...body.settings };
    if (given.variables) {
      // One value per key: a variable is added only when its key is new.
      const seen = new Set<string>();
      given.variables = given.variables.filter((v) => !seen.has(v.key) && seen.add(v.key));
    }
    await app.ds.transaction(async (tx) => {
      for (const key of SETTING_KEYS) {
        if (given[key] === undefined) continue;
        await tx.query(
          `INSERT INTO campaign_settings ("companyId", key, value) VALUES ($1, $2, $3)
           ON CONFLICT ("companyId", key) DO UPDATE SET value = EXCLUDED.value, "updatedAt" = now()`,
          [companyId, key, JSON.stringify(given[key])],
        );
      }
    });
    return settingsAnswer(companyId);
  });

  return router;
}
