// The simulator's control API (mounted only when SIMULATOR is on): play the phone, the customer
// and WhatsApp's servers. Authenticated as the connection's company admin, tenant-checked.
import { Router } from 'express';
import { simulatorEndpoints as api, type SimInboundBody } from '@atende/shared';
import { In } from 'typeorm';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { serve } from '../../http/route.js';
import type { TenantScope } from '../../http/tenant.js';
import { WhatsappEntity } from '../../modules/whatsapps/index.js';
import { newMessageId, sha256 } from './network.js';
import type { SimInbound } from './network.js';
import type { Ack } from '../port.js';
import { simulatorOf } from './index.js';

/** A customer's message as the network keeps it, with its media bytes if any. */
function toSimInbound(body: SimInboundBody): { message: SimInbound; media?: Buffer } {
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

  serve(router, app, api.connectionState, async ({ scope, params }) => {
    const id = await simulated(scope, params.id);
    const row = await scope.repo(WhatsappEntity).get(params.id);
    return {
      status: row.status,
      qrcode: row.qrcode,
      retries: row.retries,
      ...(await network.state(id)),
    };
  });

  // How often each customer message was handed to the session (WhatsApp's delivery receipts).
  serve(router, app, api.deliveries, async ({ scope, params }) =>
    network.deliveries(await simulated(scope, params.id)),
  );

  serve(router, app, api.scan, async ({ scope, params, body }) => {
    const id = await simulated(scope, params.id);
    await network.scan(id, body.number ?? defaultNumber(params.id));
    return { ok: true };
  });

  serve(router, app, api.drop, async ({ scope, params, body }) => {
    await network.drop(await simulated(scope, params.id), body.code);
    return { ok: true };
  });

  serve(router, app, api.faults, async ({ scope, params, body }) =>
    network.setFaults(await simulated(scope, params.id), body),
  );

  serve(router, app, api.inbound, async ({ scope, body }) => {
    const id = await simulated(scope, body.whatsappId);
    const { message, media } = toSimInbound(body);
    await network.inbound(id, message, media);
    return { id: message.id };
  });

  // Many customers' messages in one call (load tests); each is what /simulator/inbound takes.
  serve(router, app, api.inboundBatch, async ({ scope, body }) => {
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
  });

  serve(router, app, api.outbound, async ({ scope, query }) =>
    network.outbound(await simulated(scope, query.whatsappId)),
  );

  serve(router, app, api.ack, async ({ scope, body }) => {
    const id = await simulated(scope, body.whatsappId);
    if (!(await network.ack(id, body.id, body.ack as Ack))) throw new AppError('ERR_NOT_FOUND');
    return { ok: true };
  });

  return router;
}
