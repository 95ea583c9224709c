import { Router } from 'express';
import multer from 'multer';
import {
  idParams,
  messageEdit,
  messageListQuery,
  messageSend,
  ticketIdParams,
} from '@atende/shared';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { route } from '../../http/route.js';
import { recordingToMp3, storeMedia } from '../../whatsapp/media.js';
import { withChanges } from '../changes/publish.js';
import { assertTicketContactOnWhatsApp } from '../contacts/on-whatsapp.js';
import { loadTicket, ticketChange } from '../tickets/tickets.queries.js';
import { assertCanOpen, loadViewer } from '../tickets/visibility.js';
import './inbound.js';
import './outbound-results.js';
import { listThread } from './messages.list.js';
import { loadMessage, messageChange } from './messages.queries.js';
import { enqueueAction, refOf, sendMessage } from './messages.service.js';

/** What browsers record (MediaRecorder): kept as mp3 and sent as a voice note. */
const RECORDING = /^audio\/(webm|ogg)\b/;

export const UPLOAD_LIMITS = { fileSize: 64 * 1024 * 1024, files: 10 };
const upload = multer({ storage: multer.memoryStorage(), limits: UPLOAD_LIMITS });

/** Multipart only when the request is multipart; JSON bodies pass through untouched. */
const maybeMultipart: ReturnType<typeof upload.array> = (req, res, next) =>
  req.is('multipart/form-data')
    ? upload.array('medias', UPLOAD_LIMITS.files)(req, res, next)
    : next();

export function messagesRoutes(app: AppContext): Router {
  const router = Router();
  const viewerOf = (user: { id: number; companyId: number }) =>
    loadViewer(app.ds, user.companyId, user.id);

  router.get(
    '/messages/:ticketId',
    route(
      app,
      { params: ticketIdParams, query: messageListQuery },
      async ({ user, params, query }) =>
        listThread(app.ds, await viewerOf(user), params.ticketId, query),
    ),
  );

  router.post(
    '/messages/:ticketId',
    maybeMultipart,
    route(
      app,
      { params: ticketIdParams, body: messageSend, status: 201 },
      async ({ user, params, body, req, res }) => {
        const viewer = await viewerOf(user);
        await assertTicketContactOnWhatsApp(app, user.companyId, params.ticketId);
        const quotedMsgId =
          typeof body.quotedMsg === 'number' ? body.quotedMsg : body.quotedMsg?.id;
        const files = (req.files as Express.Multer.File[] | undefined) ?? [];
        if (files.length === 0) {
          const sent = await sendMessage(app, viewer, {
            ticketId: params.ticketId,
            body: body.body,
            quotedMsgId,
            clientId: body.clientId,
          });
          // A resend of a known clientId answers the stored message (200); nothing is sent again.
          if (sent.duplicate) {
            res.status(200).json(sent.message);
            return undefined;
          }
          return sent.message;
        }
        // One message per file; the text goes as the caption of the first.
        const messages = [];
        for (const [i, file] of files.entries()) {
          const ticket = await loadTicket(app.ds, user.companyId, params.ticketId);
          assertCanOpen(viewer, ticket);
          const recorded = RECORDING.test(file.mimetype);
          const mimetype = recorded ? 'audio/mpeg' : file.mimetype;
          const bytes = recorded ? await recordingToMp3(file.buffer) : file.buffer;
          const stored = await storeMedia(app, user.companyId, bytes, mimetype);
          const sent = await sendMessage(app, viewer, {
            ticketId: params.ticketId,
            body: i === 0 ? body.body : '',
            quotedMsgId: i === 0 ? quotedMsgId : undefined,
            clientId: body.clientId && `${body.clientId}:${i}`,
            media: {
              path: stored.path,
              url: stored.url,
              mimetype,
              fileName: recorded
                ? file.originalname.replace(/\.\w+$/, '') + '.mp3'
                : file.originalname,
              voiceNote: recorded,
            },
          });
          messages.push(sent.message);
        }
        return messages;
      },
    ),
  );

  // Mark as read: every message of the ticket read, the unread count back to zero.
  router.put(
    '/messages/:ticketId',
    route(app, { params: ticketIdParams }, async ({ user, params }) => {
      const viewer = await viewerOf(user);
      const unread = await withChanges(app, user.companyId, async (tx, changes) => {
        const ticket = await loadTicket(tx, user.companyId, params.ticketId);
        assertCanOpen(viewer, ticket);
        const [rows] = (await tx.query(
          `UPDATE messages SET read = true WHERE "ticketId" = $1 AND "companyId" = $2 AND NOT read
           RETURNING id`,
          [ticket.id, user.companyId],
        )) as [{ id: number }[], number];
        await tx.query('UPDATE tickets SET "unreadMessages" = 0 WHERE id = $1', [ticket.id]);
        changes.push({
          entity: 'ticket',
          entityId: ticket.id,
          action: 'updateUnread',
          payload: { action: 'updateUnread', ticketId: ticket.id },
          ticketQueueId: ticket.queueId,
        });
        return { ticket, ids: rows.map((r) => r.id).slice(-100) };
      });
      if (unread.ids.length && unread.ticket.whatsappId != null) {
        const refs = await Promise.all(unread.ids.map((id) => refOf(app, user.companyId, id)));
        await enqueueAction(app, {
          companyId: user.companyId,
          whatsappId: unread.ticket.whatsappId,
          to: refs[0]!.chatId,
          content: { kind: 'markRead', refs },
        }).catch(() => undefined);
      }
      return { ticketId: unread.ticket.id, unreadMessages: 0 };
    }),
  );

  router.post(
    '/messages/edit/:id',
    route(app, { params: idParams, body: messageEdit }, async ({ user, params, body }) => {
      const text = body.body.trim();
      if (!text) throw new AppError('ERR_EMPTY_MESSAGE');
      const viewer = await viewerOf(user);
      const message = await withChanges(app, user.companyId, async (tx, changes) => {
        const current = await loadMessage(tx, user.companyId, params.id);
        const ticket = await loadTicket(tx, user.companyId, current.ticketId);
        assertCanOpen(viewer, ticket);
        if (!current.fromMe || current.userId !== user.id)
          throw new AppError('ERR_MESSAGE_NOT_OWN');
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
          await tx.query('UPDATE tickets SET "lastMessage" = $2 WHERE id = $1', [ticket.id, text]);
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
      return message;
    }),
  );

  router.delete(
    '/messages/:id',
    route(app, { params: idParams }, async ({ user, params }) => {
      const viewer = await viewerOf(user);
      const message = await withChanges(app, user.companyId, async (tx, changes) => {
        const current = await loadMessage(tx, user.companyId, params.id);
        const ticket = await loadTicket(tx, user.companyId, current.ticketId);
        assertCanOpen(viewer, ticket);
        if (!current.fromMe || current.userId !== user.id)
          throw new AppError('ERR_MESSAGE_NOT_OWN');
        await tx.query(
          'UPDATE messages SET "isDeleted" = true, "updatedAt" = now() WHERE id = $1',
          [current.id],
        );
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
      return message;
    }),
  );

  return router;
}
