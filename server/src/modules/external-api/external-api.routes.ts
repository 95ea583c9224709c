import {
  externalApiEndpoints as api,
  externalSendBody,
  type ExternalSendBody,
} from '@atende/shared';
import { Router, type Request, type Response } from 'express';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { AppError, ValidationError } from '../../http/errors.js';
import { serve } from '../../http/route.js';
import { releaseMedia } from '../../whatsapp/media-quota.js';
import {
  discardUploads,
  keepUploads,
  receiveUploads,
  type ReceivedFile,
} from '../../whatsapp/media-upload.js';
import { numberOnWhatsApp } from '../../whatsapp/number-check.js';
import { loadMessage, sendOutgoing } from '../messages/index.js';
import { newConnectionToken, storedToken } from '../whatsapps/index.js';
import {
  authenticate,
  claimKey,
  completeKey,
  dropKey,
  idempotencyKeyOf,
  rateLimit,
  requestHash,
  statusOf,
  ticketFor,
  type ApiCaller,
} from './external-api.service.js';

/** WhatsApp's own limit for media (documents go to 100 MB; we keep one limit for all). */
export const EXTERNAL_MEDIA_MAX_BYTES = 16 * 1024 * 1024;
export const EXTERNAL_MEDIA_MAX_FILES = 10;

type SendAnswer = z.infer<typeof api.sendExternalMessage.response>;

function parseSend(value: unknown): ExternalSendBody {
  const parsed = externalSendBody.safeParse(value ?? {});
  if (parsed.success) return parsed.data;
  throw new ValidationError(
    parsed.error.issues.map((i) => ({
      path: ['body', ...i.path.map(String)].join('.'),
      message: i.message,
    })),
  );
}

/** The files and fields of a multipart call, read only after the token passed. */
async function readMultipart(app: AppContext, req: Request, res: Response) {
  const files = await receiveUploads(app, req, res, {
    fields: ['medias'],
    maxFiles: EXTERNAL_MEDIA_MAX_FILES,
    maxBytes: Math.min(EXTERNAL_MEDIA_MAX_BYTES, app.config.UPLOAD_MAX_BYTES),
  });
  try {
    return { files, body: parseSend(req.body) };
  } catch (err) {
    await discardUploads(files);
    throw err;
  }
}

/** Sends text, or one message per file (the text as the first one's caption). */
async function send(
  app: AppContext,
  caller: ApiCaller,
  body: ExternalSendBody,
  files: ReceivedFile[],
  clientKey: string | undefined,
): Promise<SendAnswer> {
  // A number WhatsApp does not know gets a clear 400 and nothing is written.
  if ((await numberOnWhatsApp(app, caller.companyId, caller.whatsappId, body.number)) === 'missing')
    throw new AppError('ERR_WAPP_INVALID_CONTACT');
  if (!files.length && !body.body) {
    throw new ValidationError([{ path: 'body.body', message: 'Obrigatório' }]);
  }
  const ticketId = await ticketFor(app, caller, body.number);
  const clientId = (i: number) => (clientKey ? `api:${clientKey}:${i}` : undefined);
  if (!files.length) {
    const sent = await sendOutgoing(app, caller.companyId, {
      ticketId,
      body: body.body,
      clientId: clientId(0),
      userId: null,
      origin: 'api',
    });
    return {
      messageId: sent.message.id,
      messageIds: [sent.message.id],
      status: sent.queued || sent.duplicate ? statusOf(sent.message) : 'failed',
    };
  }
  const stored = await keepUploads(app, caller.companyId, files);
  const ids: number[] = [];
  let failed = false;
  try {
    for (const [i, file] of files.entries()) {
      const sent = await sendOutgoing(app, caller.companyId, {
        ticketId,
        body: i === 0 ? body.body : '',
        clientId: clientId(i),
        userId: null,
        origin: 'api',
        media: {
          path: `${caller.companyId}/${stored[i]!.file}`,
          url: stored[i]!.url,
          mimetype: file.mimetype,
          fileName: file.originalName,
        },
      });
      if (!sent.queued && !sent.duplicate) failed = true;
      ids.push(sent.message.id);
    }
  } catch (err) {
    const left = stored.slice(ids.length);
    await discardUploads(left);
    await releaseMedia(
      app,
      caller.companyId,
      left.reduce((n, f) => n + f.size, 0),
    );
    throw err;
  }
  return { messageId: ids[0]!, messageIds: ids, status: failed ? 'failed' : 'queued' };
}

/** The external messages API (secondary §7) and the rotation of a connection's token. */
export function externalApiRoutes(app: AppContext): Router {
  const router = Router();

  serve(router, app, api.sendExternalMessage, async ({ req, res, body: jsonBody }) => {
    const caller = await authenticate(app, req);
    await rateLimit(app, caller, res);
    const key = idempotencyKeyOf(req);
    let files: ReceivedFile[] = [];
    let body: ExternalSendBody;
    if (req.is('multipart/form-data')) ({ files, body } = await readMultipart(app, req, res));
    else body = parseSend(jsonBody);
    try {
      if (!key) return await send(app, caller, body, files, undefined);
      const hash = requestHash({
        number: body.number,
        body: body.body,
        files: files.map((f) => [f.originalName, f.mimetype, f.size]),
      });
      const claim = await claimKey<SendAnswer>(app, caller, key, hash);
      if (claim.kind === 'done') return claim.answer;
      try {
        const clientKey = requestHash([caller.whatsappId, key]).slice(0, 40);
        const answer = await send(app, caller, body, files, clientKey);
        await completeKey(app, claim.id, answer);
        return answer;
      } catch (err) {
        await dropKey(app, claim.id);
        throw err;
      }
    } finally {
      await discardUploads(files);
    }
  });

  serve(router, app, api.externalMessageStatus, async ({ req, res, params }) => {
    const caller = await authenticate(app, req);
    await rateLimit(app, caller, res);
    const message = await loadMessage(app.ds, caller.companyId, params.id).catch(() => undefined);
    // Only what went out through this connection, and never a customer's message.
    if (!message || message.whatsappId !== caller.whatsappId || !message.fromMe) {
      throw new AppError('ERR_NO_MESSAGE_FOUND');
    }
    const [contact] = (await app.ds.query('SELECT number FROM contacts WHERE id = $1', [
      message.contactId,
    ])) as { number: string }[];
    return {
      messageId: message.id,
      status: statusOf(message),
      ack: message.ack,
      error: message.sendError,
      number: contact?.number ?? '',
      createdAt: new Date(message.createdAt).toISOString(),
    };
  });

  serve(router, app, api.rotateConnectionToken, async ({ scope, params }) => {
    const { plain, token, tokenLast4 } = storedToken(newConnectionToken());
    const [rows] = (await app.ds.query(
      `UPDATE whatsapps SET token = $3, "tokenLast4" = $4, "updatedAt" = now()
        WHERE id = $1 AND "companyId" = $2 RETURNING id`,
      [params.id, scope.companyId, token, tokenLast4],
    )) as [unknown[], number];
    if (!rows.length) throw new AppError('ERR_NO_WAPP_FOUND');
    return { token: plain, tokenLast4 };
  });

  return router;
}
