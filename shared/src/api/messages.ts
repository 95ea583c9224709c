import { z } from 'zod';
import { idParams, wireDate } from './common.js';
import { endpoint } from './endpoint.js';
import {
  messageEdit,
  messageListQuery,
  messageSend,
  ticketAnswer,
  ticketIdParams,
} from './tickets.js';

const id = z.number().int();

/**
 * A message as the thread shows it (core §3): its media link signed and absolute, the quoted
 * message and the customer (null on the agent's messages) in brief.
 */
export const chatMessageAnswer = z.object({
  id,
  ticketId: id,
  contactId: id,
  whatsappId: id.nullable(),
  /** The WhatsApp message id. */
  wid: z.string(),
  body: z.string(),
  fromMe: z.boolean(),
  read: z.boolean(),
  /** 0 pending, 1-2 sent, 3 delivered, 4-5 read. */
  ack: z.number().int(),
  /** chat, image, audio, video, application, document, locationMessage, contactMessage... */
  mediaType: z.string(),
  mediaUrl: z.string().nullable(),
  /** The file's original name, when known. */
  fileName: z.string().nullable(),
  isDeleted: z.boolean(),
  isEdited: z.boolean(),
  previousBodies: z.array(z.object({ body: z.string(), editedAt: z.string() })),
  reactions: z.array(z.object({ from: z.string(), emoji: z.string(), fromMe: z.boolean() })),
  location: z.unknown(),
  vcards: z.array(z.string()).nullable(),
  /** Who wrote a group message. */
  participant: z.string().nullable(),
  quotedMsgId: id.nullable(),
  quotedMsg: z
    .object({ id, body: z.string(), fromMe: z.boolean(), mediaType: z.string() })
    .nullable(),
  contact: z.object({ id, name: z.string() }).nullable(),
  clientId: z.string().nullable(),
  userId: id.nullable(),
  /** Why the send failed, when it did. */
  sendError: z.string().nullable(),
  createdAt: wireDate,
  updatedAt: wireDate,
});
export type ChatMessageAnswer = z.infer<typeof chatMessageAnswer>;

/** Messages of a ticket's thread (core §7). */
export const messageEndpoints = {
  listMessages: endpoint({
    method: 'get',
    path: '/messages/:ticketId',
    summary:
      "A page (20) of the thread of the ticket's contact, newest page first; page 1 reads it",
    tag: 'messages',
    params: ticketIdParams,
    query: messageListQuery,
    response: z.object({
      messages: z.array(chatMessageAnswer),
      hasMore: z.boolean(),
      count: z.number().int(),
      ticket: ticketAnswer,
      nextCursor: z.string().nullable(),
    }),
  }),
  sendMessage: endpoint({
    method: 'post',
    path: '/messages/:ticketId',
    summary:
      'Sends a message: JSON {body, quotedMsg, clientId}, or multipart with files (medias), one message per file',
    tag: 'messages',
    params: ticketIdParams,
    body: messageSend,
    multipart: true,
    status: 201,
    /** One message, or with files one per file. A known clientId answers it again (200). */
    response: z.union([chatMessageAnswer, z.array(chatMessageAnswer)]),
  }),
  markRead: endpoint({
    method: 'put',
    path: '/messages/:ticketId',
    summary: "Marks the ticket's messages read (unread count to zero, read receipts sent)",
    tag: 'messages',
    params: ticketIdParams,
    response: z.object({ ticketId: id, unreadMessages: z.number().int() }),
  }),
  editMessage: endpoint({
    method: 'post',
    path: '/messages/edit/:id',
    summary: "Edits the caller's own sent message",
    tag: 'messages',
    params: idParams,
    body: messageEdit,
    response: chatMessageAnswer,
  }),
  deleteMessage: endpoint({
    method: 'delete',
    path: '/messages/:id',
    summary: "Deletes the caller's own sent message (for everyone on WhatsApp)",
    tag: 'messages',
    params: idParams,
    response: chatMessageAnswer,
  }),
} as const;
