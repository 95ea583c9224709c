import { Router } from 'express';
import { whatsappEndpoints as api, WHATSAPP_PROVIDERS } from '@atende/shared';
import type { AppContext } from '../../context.js';
import { serve } from '../../http/route.js';
import type { TenantScope } from '../../http/tenant.js';
import type { AuthUser } from '../auth/index.js';
import { discardConnectionJobs } from '../../whatsapp/connection-queue.js';
import { requestSession, type SessionAction } from '../../whatsapp/sessions.js';
import { simulatorOf } from '../../whatsapp/simulator/index.js';
import { WhatsappEntity, type ConnectionStatus, type Whatsapp } from './whatsapp.entity.js';
import {
  createWhatsapp,
  deleteWhatsapp,
  publicWhatsapp,
  queuesOfWhatsapps,
  updateWhatsapp,
} from './whatsapps.service.js';

const isAdmin = (user: AuthUser) => user.profile === 'admin' || user.super;

/** Writes a status the API decides (a start was asked, a disconnect) and tells the company. */
async function setSessionStatus(app: AppContext, w: Whatsapp, status: ConnectionStatus) {
  const [rows] = (await app.ds.query(
    `UPDATE whatsapps SET status = $2, qrcode = '', retries = 0, "updatedAt" = now()
      WHERE id = $1 RETURNING id, status, qrcode, retries, "updatedAt"`,
    [w.id, status],
  )) as [({ id: number; status: string } & Record<string, unknown>)[], number];
  if (rows[0]) {
    app.realtime.toCompany(w.companyId, 'whatsappSession', { action: 'update', session: rows[0] });
  }
}

/** A session on its way up: a QR code or pairing code shown, or the connect still running. */
const STARTING: ReadonlySet<string> = new Set(['OPENING', 'qrcode', 'PAIRING']);

/**
 * A start asked while the connection is already starting changes nothing on the row: the company
 * is told its current state again (the QR code shown now), instead of an empty OPENING that would
 * hide the QR until the provider's next one (~40 s with Baileys).
 */
async function resendSessionStatus(app: AppContext, w: Whatsapp) {
  const [row] = (await app.ds.query(
    `SELECT id, status, qrcode, retries, "updatedAt" FROM whatsapps WHERE id = $1`,
    [w.id],
  )) as ({ id: number; status: string } & Record<string, unknown>)[];
  if (row)
    app.realtime.toCompany(w.companyId, 'whatsappSession', { action: 'update', session: row });
}

export function whatsappsRoutes(app: AppContext): Router {
  const router = Router();
  const repo = (scope: TenantScope) => scope.repo(WhatsappEntity, 'ERR_NO_WAPP_FOUND');

  async function answer(scope: TenantScope, user: AuthUser, id: number, plainToken?: string) {
    const row = await repo(scope).get(id);
    const queues = (await queuesOfWhatsapps(app.ds, [id])).get(id) ?? [];
    return publicWhatsapp(row, queues, isAdmin(user), plainToken);
  }

  // Every user of the company hears it: never a token in it, not even masked.
  const emit = (companyId: number, whatsapp: ReturnType<typeof publicWhatsapp>) => {
    const {
      token: _t,
      tokenLast4: _l,
      ...shown
    } = whatsapp as typeof whatsapp & {
      token?: string;
      tokenLast4?: string;
    };
    app.realtime.toCompany(companyId, 'whatsapp', { action: 'update', whatsapp: shown });
  };

  serve(router, app, api.listWhatsapps, async ({ scope, user }) => {
    const rows = await repo(scope).find({}, { order: { name: 'ASC' } });
    const queues = await queuesOfWhatsapps(
      app.ds,
      rows.map((w) => w.id),
    );
    return rows.map((w) => publicWhatsapp(w, queues.get(w.id) ?? [], isAdmin(user)));
  });

  // Which providers a new connection may use here: the simulator only when it is switched on.
  serve(router, app, api.providers, async () => ({
    providers: WHATSAPP_PROVIDERS.filter((p) => p !== 'simulator' || app.config.SIMULATOR),
  }));

  serve(router, app, api.showWhatsapp, ({ scope, user, params }) => answer(scope, user, params.id));

  serve(router, app, api.createWhatsapp, async ({ scope, user, body }) => {
    const previousDefault = await repo(scope).findOne({ isDefault: true });
    const created = await createWhatsapp(app, scope, body);
    const whatsapp = await answer(scope, user, created.id, created.plainToken);
    emit(scope.companyId, whatsapp);
    if (created.isDefault && previousDefault) {
      emit(scope.companyId, await answer(scope, user, previousDefault.id));
    }
    // A new connection starts at once, as in Whaticket: its QR code is the next thing shown.
    await requestSession(app, 'start', created.id);
    return whatsapp;
  });

  serve(router, app, api.updateWhatsapp, async ({ scope, user, params, body }) => {
    const before = await repo(scope).get(params.id);
    const previousDefault = await repo(scope).findOne({ isDefault: true });
    const updated = await updateWhatsapp(app, scope, params.id, body);
    const whatsapp = await answer(scope, user, updated.id, updated.plainToken);
    emit(scope.companyId, whatsapp);
    // The previous default lost its flag: lists show it.
    if (body.isDefault && previousDefault && previousDefault.id !== updated.id) {
      emit(scope.companyId, await answer(scope, user, previousDefault.id));
    }
    if (body.provider && body.provider !== before.provider) {
      await requestSession(app, 'restart', updated.id);
    }
    return whatsapp;
  });

  serve(router, app, api.deleteWhatsapp, async ({ scope, user, params }) => {
    const { deleted, promoted } = await deleteWhatsapp(app, scope, params.id);
    app.realtime.toCompany(scope.companyId, 'whatsapp', {
      action: 'delete',
      whatsappId: deleted.id,
    });
    if (promoted) emit(scope.companyId, await answer(scope, user, promoted));
    await requestSession(app, 'stop', deleted.id);
    await discardConnectionJobs(app, deleted.id);
    if (deleted.provider === 'simulator') await simulatorOf(app).network.forget(String(deleted.id));
    return { message: 'Whatsapp deleted.' };
  });

  const sessionRoute = (
    endpoint: typeof api.startSession | typeof api.newQr | typeof api.stopSession,
    action: SessionAction,
    status: ConnectionStatus,
    message: string,
  ) =>
    serve(router, app, endpoint, async ({ scope, params, body }) => {
      const w = await repo(scope).get(params.id);
      if (action === 'start' && STARTING.has(w.status)) await resendSessionStatus(app, w);
      else await setSessionStatus(app, w, status);
      // With a phone number the session links by pairing code instead of a QR code. A start
      // while starting still goes out: a worker already running it ignores it, and one that
      // died leaves the connection to be taken here.
      const pairingPhone = action === 'stop' ? undefined : body.pairingPhone;
      await requestSession(app, action, w.id, pairingPhone ? { pairingPhone } : {});
      return { message };
    });

  sessionRoute(api.startSession, 'start', 'OPENING', 'Starting session.');
  sessionRoute(api.newQr, 'newqr', 'OPENING', 'Starting session.');
  sessionRoute(api.stopSession, 'stop', 'DISCONNECTED', 'Session disconnected.');

  serve(router, app, api.restartAll, async ({ scope }) => {
    for (const w of await repo(scope).find()) {
      await setSessionStatus(app, w, 'OPENING');
      await requestSession(app, 'restart', w.id);
    }
    return { message: 'Whatsapp restart.' };
  });

  return router;
}
