import { stat } from 'node:fs/promises';
import { Router, type Request, type Response } from 'express';
import { messageSend, messageEndpoints as api } from '@atende/shared';
import type { AppContext } from '../../context.js';
import { AppError, ValidationError } from '../../http/errors.js';
import { serve } from '../../http/route.js';
import { recordingToMp3 } from '../../whatsapp/media.js';
import { releaseMedia } from '../../whatsapp/media-quota.js';
import {
  discardUploads,
  keepUploads,
  receiveUploads,
  type ReceivedFile,
} from '../../whatsapp/media-upload.js';
import { withChanges } from '../changes/index.js';
import { assertTicketContactOnWhatsApp } from '../contacts/index.js';
import { loadTicket, setPreview, ticketChange } from '../tickets/index.js';
import { assertCanOpen, loadViewer } from '../tickets/index.js';
import { mediaBase, withSignedMedia } from '../whatsapps/index.js';
import { listThread } from './messages.list.js';
import { loadMessage, messageChange } from './messages.queries.js';
import { enqueueAction, refOf, sendMessage } from './messages.service.js';
import { markTicketRead } from './read-state.js';

/** What browsers record (MediaRecorder): kept as mp3 and sent as a voice note. */
const RECORDING = /^audio\/(webm|ogg)\b/;

export const UPLOAD_LIMITS = { fileSize: 64 * 1024 * 1024, files: 10 };

/** A multipart body is read only here, after route() authenticated the caller. */
async function multipartBody(app: AppContext, req: Request, res: Response) {
  const files = await receiveUploads(app, req, res, {
    fields: ['medias'],
    maxFiles: UPLOAD_LIMITS.files,
    maxBytes: Math.min(UPLOAD_LIMITS.fileSize, app.config.UPLOAD_MAX_BYTES),
  });
  const parsed = messageSend.safeParse(req.body ?? {});
  if (parsed.success) return { files, body: parsed.data };
  await discardUploads(files);
  throw new ValidationError(
    parsed.error.issues.map((i) => ({
      path: ['body', ...i.path.map(String)].join('.'),
      message: i.message,
    })),
  );
}

/**
 * The files of one send, ready to keep: recordings converted to mp3 (a recording ffmpeg cannot
 * read is ERR_INVALID_MEDIA), each with the type and name it is kept and sent under.
 */
async function prepareFiles(app: AppContext, files: ReceivedFile[], temps: string[]) {
  const prepared = [];
  for (const file of files) {
    const recorded = RECORDING.test(file.mimetype);
    if (!recorded) {
      prepared.push({ ...file, recorded, fileName: file.originalName });
      continue;
    }
    const mp3 = await recordingToMp3(app, file.path);
    temps.push(mp3);
    prepared.push({
      ...file,
      path: mp3,
      mimetype: 'audio/mpeg',
      size: (await stat(mp3)).size,
      recorded,
      fileName: file.originalName.replace(/\.\w+$/, '') + '.mp3',
    });
  }
  return prepared;
}

/** A message as answered: its media link signed and absolute (media-links.ts). */
const signed = <T extends { mediaUrl: string | null }>(
  app: AppContext,
  companyId: number,
  message: T,
  req: Request,
): T => withSignedMedia(app, companyId, message, mediaBase(app, req));

export function messagesRoutes(app: AppContext): Router {
  const router = Router();
  const viewerOf = (user: { id: number; companyId: number }) =>
    loadViewer(app.ds, user.companyId, user.id);

  serve(router, app, api.listMessages, async ({ user, params, query, req }) => {
    const viewer = await viewerOf(user);
    const thread = await listThread(app.ds, viewer, params.ticketId, query);
    // Opening a ticket (its first page) reads it, as Whaticket's clients expect. A ticket
    // with no unread count has no unread customer message (the count only grows with them).
    const ticket = thread.ticket as { unreadMessages: number };
    if (query.pageNumber === 1 && !query.cursor && ticket.unreadMessages > 0) {
      const { unreadMessages } = await markTicketRead(app, viewer, params.ticketId);
      thread.ticket = { ...ticket, unreadMessages };
    }
    const base = mediaBase(app, req);
    return {
      ...thread,
      messages: thread.messages.map((m) => withSignedMedia(app, user.companyId, m, base)),
    };
  });

  serve(router, app, api.sendMessage, async ({ user, params, body: jsonBody, req, res }) => {
    const viewer = await viewerOf(user);
    await assertTicketContactOnWhatsApp(app, user.companyId, params.ticketId);
    let multipart: Awaited<ReturnType<typeof multipartBody>> | undefined;
    if (req.is('multipart/form-data')) {
      // Files are read only for a ticket the caller may open.
      assertCanOpen(viewer, await loadTicket(app.ds, user.companyId, params.ticketId));
      multipart = await multipartBody(app, req, res);
    }
    const body = multipart?.body ?? jsonBody;
    const files = multipart?.files ?? [];
    const quotedMsgId = typeof body.quotedMsg === 'number' ? body.quotedMsg : body.quotedMsg?.id;
    if (files.length === 0) {
      const sent = await sendMessage(app, viewer, {
        ticketId: params.ticketId,
        body: body.body,
        quotedMsgId,
        clientId: body.clientId,
      });
      // A resend of a known clientId answers the stored message (200); nothing is sent again.
      if (sent.duplicate) {
        res.status(200).json(signed(app, user.companyId, sent.message, req));
        return undefined;
      }
      return signed(app, user.companyId, sent.message, req);
    }
    // Every file is checked, converted and counted against the quota before any is kept or
    // sent; then one message per file, the text as the caption of the first.
    const temps = files.map((f) => f.path);
    try {
      const prepared = await prepareFiles(app, files, temps);
      const stored = await keepUploads(app, user.companyId, prepared);
      const messages = [];
      // A send that fails leaves no file behind for it or the files after it.
      const unsent = async () => {
        const left = stored.slice(messages.length);
        await discardUploads(left);
        const bytes = left.reduce((sum, f) => sum + f.size, 0);
        await releaseMedia(app, user.companyId, bytes);
      };
      for (const [i, file] of prepared.entries()) {
        const sent = await sendMessage(app, viewer, {
          ticketId: params.ticketId,
          body: i === 0 ? body.body : '',
          quotedMsgId: i === 0 ? quotedMsgId : undefined,
          clientId: body.clientId && `${body.clientId}:${i}`,
          media: {
            path: stored[i]!.path,
            url: stored[i]!.url,
            mimetype: file.mimetype,
            fileName: file.fileName,
            voiceNote: file.recorded,
          },
        }).catch(async (err: unknown) => {
          await unsent();
          throw err;
        });
        // A resend of a known clientId keeps the first upload's file, not this copy.
        if (sent.duplicate) {
          await discardUploads([stored[i]!]);
          await releaseMedia(app, user.companyId, stored[i]!.size);
        }
        messages.push(sent.message);
      }
      return messages.map((m) => signed(app, user.companyId, m, req));
    } finally {
      await discardUploads(temps.map((p) => ({ path: p })));
    }
  });

  // Mark as read (read-state.ts): the unread count back to zero, read receipts to WhatsApp.
  serve(router, app, api.markRead, async ({ user, params }) =>
    markTicketRead(app, await viewerOf(user), params.ticketId),
  );

  serve(router, app, api.editMessage, async ({ user, params, body, req }) => {
    const text = body.body.trim();
    if (!text) throw new AppError('ERR_EMPTY_MESSAGE');
    const viewer = await viewerOf(user);
    const message = await withChanges(app, user.companyId, async (tx, changes) => {
      const current = await loadMessage(tx, user.companyId, params.id);
      const ticket = await loadTicket(tx, user.companyId, current.ticketId);
      assertCanOpen(viewer, ticket);
      if (!current.fromMe || current.userId !== user.id) throw new AppError('ERR_MESSAGE_NOT_OWN');
      if (current.isDeleted) throw new AppError('ERR_NO_MESSAGE_FOUND');
      await tx.query(
        `UPDATE messages SET "previousBodies" = "previousBodies" || jsonb_build_array(
                  jsonb_build_object('body', body, 'editedAt', now())),
                  body = $2, "isEdited" = true, "updatedAt" = now() WHERE id = $1`,
        [current.id, text],
      );
      const updated = await loadMessage(tx, user.companyId, current.id);
      changes.push(messageChange(updated, ticket, 'update'));
      if (ticket.lastMessage === current.body) {
        await setPreview(tx, ticket.id, text);
        changes.push(ticketChange(await loadTicket(tx, user.companyId, ticket.id)));
      }
      return updated;
    });
    if (message.whatsappId != null) {
      await enqueueAction(app, {
        companyId: user.companyId,
        whatsappId: message.whatsappId,
        to: '',
        content: {
          kind: 'edit',
          target: await refOf(app, user.companyId, message.id),
          body: text,
        },
      });
    }
    return signed(app, user.companyId, message, req);
  });

  serve(router, app, api.deleteMessage, async ({ user, params, req }) => {
    const viewer = await viewerOf(user);
    const message = await withChanges(app, user.companyId, async (tx, changes) => {
      const current = await loadMessage(tx, user.companyId, params.id);
      const ticket = await loadTicket(tx, user.companyId, current.ticketId);
      assertCanOpen(viewer, ticket);
      if (!current.fromMe || current.userId !== user.id) throw new AppError('ERR_MESSAGE_NOT_OWN');
      await tx.query('UPDATE messages SET "isDeleted" = true, "updatedAt" = now() WHERE id = $1', [
        current.id,
      ]);
      const updated = await loadMessage(tx, user.companyId, current.id);
      changes.push(messageChange(updated, ticket, 'update'));
      return updated;
    });
    if (message.whatsappId != null) {
      const target = await refOf(app, user.companyId, message.id);
      await enqueueAction(app, {
        companyId: user.companyId,
        whatsappId: message.whatsappId,
        to: target.chatId,
        content: { kind: 'delete', target },
      });
    }
    return signed(app, user.companyId, message, req);
  });

  return router;
}
