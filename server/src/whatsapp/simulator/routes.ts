// The simulator's control API (mounted only when SIMULATOR is on): play the phone, the customer
// and WhatsApp's servers. Authenticated as the connection's company admin, tenant-checked.
import { Router } from 'express';
import { idParams, idSchema } from '@atende/shared';
import { In } from 'typeorm';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { route } from '../../http/route.js';
import type { TenantScope } from '../../http/tenant.js';
import { WhatsappEntity } from '../../modules/whatsapps/index.js';
import { newMessageId, sha256 } from './network.js';
import type { SimInbound } from './network.js';
import type { Ack } from '../port.js';
import { simulatorOf } from './index.js';

const digits = z
  .string()
  .transform((v) => v.replace(/\D/g, ''))
  .pipe(z.string().min(8).max(20));

const inboundBody = z
  .object({
    whatsappId: idSchema,
    from: digits,
    name: z.string().max(100).optional(),
    body: z.string().max(65_536).optional(),
    media: z
      .object({
        mimetype: z.string().min(3).max(100),
        fileName: z.string().max(255).optional(),
        base64: z.string().min(1),
      })
      .optional(),
    quotedId: z.string().min(1).max(128).optional(),
    id: z.string().min(1).max(128).optional(),
    lid: digits.optional(),
    group: z
      .object({ id: z.string().min(1).max(128), subject: z.string().max(100).optional() })
      .optional(),
  })
  .refine((b) => b.body !== undefined || b.media !== undefined, 'body or media is required');

const inboundBatchBody = z.object({ messages: z.array(inboundBody).min(1).max(1000) });

/** A customer's message as the network keeps it, with its media bytes if any. */
function toSimInbound(body: z.output<typeof inboundBody>): { message: SimInbound; media?: Buffer } {
  const message: SimInbound = {
    id: body.id ?? newMessageId(),
    from: body.from,
    body: body.body ?? '',
    at: Date.now(),
  };
  if (body.name) message.name = body.name;
  if (body.quotedId) message.quotedId = body.quotedId;
  if (body.lid) message.lid = body.lid;
  if (body.group) message.group = body.group;
  if (!body.media) return { message };
  const media = Buffer.from(body.media.base64, 'base64');
  if (!media.byteLength) throw new AppError('ERR_VALIDATION', { details: 'media.base64' });
  message.media = {
    mimetype: body.media.mimetype,
    size: media.byteLength,
    locator: `${message.id}-${sha256(media).slice(0, 16)}`,
    ...(body.media.fileName && { fileName: body.media.fileName }),
  };
  return { message, media };
}

const ackBody = z.object({
  whatsappId: idSchema,
  id: z.string().min(1).max(128),
  ack: z.number().int().min(0).max(5),
});

const faultsBody = z.object({
  duplicate: z.boolean().optional(),
  outOfOrder: z.boolean().optional(),
  replayOnReconnect: z.boolean().optional(),
  ciphertextFirst: z.boolean().optional(),
  noReplay: z.boolean().optional(),
});

/** The number the simulated phone gets when none is given: 55 11 9 and the id. */
const defaultNumber = (whatsappId: number) => `55119${String(whatsappId).padStart(8, '0')}`;

export function simulatorRoutes(app: AppContext): Router {
  const router = Router();
  if (!app.config.SIMULATOR) return router;
  const { network } = simulatorOf(app);

  async function simulated(scope: TenantScope, whatsappId: number) {
    const row = await scope.repo(WhatsappEntity, 'ERR_NO_WAPP_FOUND').get(whatsappId);
    if (row.provider !== 'simulator') throw new AppError('ERR_NOT_SIMULATOR');
    return String(row.id);
  }

  router.get(
    '/simulator/connections/:id',
    route(app, { access: 'admin', params: idParams }, async ({ scope, params }) => {
      const id = await simulated(scope, params.id);
      const row = await scope.repo(WhatsappEntity).get(params.id);
      return {
        status: row.status,
        qrcode: row.qrcode,
        retries: row.retries,
        ...(await network.state(id)),
      };
    }),
  );

  // How often each customer message was handed to the session (WhatsApp's delivery receipts).
  router.get(
    '/simulator/connections/:id/deliveries',
    route(app, { access: 'admin', params: idParams }, async ({ scope, params }) =>
      network.deliveries(await simulated(scope, params.id)),
    ),
  );

  router.post(
    '/simulator/connections/:id/scan',
    route(
      app,
      { access: 'admin', params: idParams, body: z.object({ number: digits.optional() }) },
      async ({ scope, params, body }) => {
        const id = await simulated(scope, params.id);
        await network.scan(id, body.number ?? defaultNumber(params.id));
        return { ok: true };
      },
    ),
  );

  router.post(
    '/simulator/connections/:id/drop',
    route(
      app,
      {
        access: 'admin',
        params: idParams,
        body: z.object({ code: z.number().int().min(100).max(999) }),
      },
      async ({ scope, params, body }) => {
        await network.drop(await simulated(scope, params.id), body.code);
        return { ok: true };
      },
    ),
  );

  router.post(
    '/simulator/connections/:id/faults',
    route(
      app,
      { access: 'admin', params: idParams, body: faultsBody },
      async ({ scope, params, body }) => network.setFaults(await simulated(scope, params.id), body),
    ),
  );

  router.post(
    '/simulator/inbound',
    route(app, { access: 'admin', body: inboundBody }, async ({ scope, body }) => {
      const id = await simulated(scope, body.whatsappId);
      const { message, media } = toSimInbound(body);
      await network.inbound(id, message, media);
      return { id: message.id };
    }),
  );

  // Many customers' messages in one call (load tests); each is what /simulator/inbound takes.
  router.post(
    '/simulator/inbound/batch',
    route(app, { access: 'admin', body: inboundBatchBody }, async ({ scope, body }) => {
      // One query for every connection the batch names; any not found (or another company's)
      // fails the whole batch before anything is written.
      const wanted = [...new Set(body.messages.map((m) => m.whatsappId))];
      const rows = await scope.repo(WhatsappEntity).find({ id: In(wanted) });
      if (rows.length !== wanted.length) throw new AppError('ERR_NO_WAPP_FOUND');
      if (rows.some((r) => r.provider !== 'simulator')) throw new AppError('ERR_NOT_SIMULATOR');
      const ids = new Map(rows.map((r) => [r.id, String(r.id)]));
      const items = body.messages.map((m) => ({
        connectionId: ids.get(m.whatsappId)!,
        ...toSimInbound(m),
      }));
      await network.inboundMany(items);
      return { ids: items.map((i) => i.message.id) };
    }),
  );

  router.get(
    '/simulator/outbound',
    route(
      app,
      { access: 'admin', query: z.object({ whatsappId: idSchema }) },
      async ({ scope, query }) => network.outbound(await simulated(scope, query.whatsappId)),
    ),
  );

  router.post(
    '/simulator/ack',
    route(app, { access: 'admin', body: ackBody }, async ({ scope, body }) => {
      const id = await simulated(scope, body.whatsappId);
      if (!(await network.ack(id, body.id, body.ack as Ack))) throw new AppError('ERR_NOT_FOUND');
      return { ok: true };
    }),
  );

  return router;
}
