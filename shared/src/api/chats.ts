import { z } from 'zod';
import {
  idParams,
  isOneLine,
  messageAnswer,
  pageQuery,
  queryInt,
  ref,
  textSchema,
  uuidSchema,
  wireDate,
} from './common.js';
import { endpoint } from './endpoint.js';

/** Secondary §5: the two browser alerts of the chat dialog. */
export const CHAT_TITLE_REQUIRED = 'Por favor, preencha o título da conversa.';
export const CHAT_USERS_REQUIRED = 'Por favor, selecione pelo menos um usuário.';
/** Chats and messages come 20 to a page (core §9: the chat list page starts at 1). */
export const CHATS_PAGE_SIZE = 20;
export const CHAT_MESSAGES_PAGE_SIZE = 20;
export const CHAT_MESSAGE_MAX = 10_000;

/** A member as Whaticket's dialog sends it: a user object `{id, name}` or a bare id. */
const member = z.union([ref('user'), z.object({ id: ref('user') }).transform((u) => u.id)]);

const chatTitle = z
  .string({ error: CHAT_TITLE_REQUIRED })
  .refine(isOneLine, 'control characters are not allowed')
  .trim()
  .min(1, CHAT_TITLE_REQUIRED)
  .max(255);

/** `POST /chats` (secondary §7): a title and at least one other user; the caller owns it. */
export const chatInput = z.object({
  title: chatTitle,
  users: z.array(member, { error: CHAT_USERS_REQUIRED }).min(1, CHAT_USERS_REQUIRED).max(500),
});
export type ChatInput = z.infer<typeof chatInput>;

/** `PUT /chats/{id}`: a new title and/or the new member list (the owner always stays). */
export const chatUpdate = z.object({
  title: chatTitle.optional(),
  users: z.array(member).min(1, CHAT_USERS_REQUIRED).max(500).optional(),
});
export type ChatUpdate = z.infer<typeof chatUpdate>;

/** A chat message: empty text after trimming is refused (secondary §5). */
export const chatMessageInput = z.object({
  message: textSchema(CHAT_MESSAGE_MAX).trim().min(1, 'Obrigatório'),
});

/** `POST /chats/{id}/read`: Whaticket sends `{userId}`; the reader is always the token's user. */
export const chatReadInput = z.object({ userId: z.unknown().optional() }).optional();

/** `GET /chats/u/{uuid}`: the chat of the `/chats/{uuid}` screen. */
export const chatUuidParams = z.object({ uuid: uuidSchema });

export const chatMessagesQuery = z.object({
  pageNumber: queryInt(1, 100_000).optional().default(1),
});

const id = z.number().int();
const userRef = z.object({ id, name: z.string() });

/** A member with their unread count (messages after their read cursor not sent by them). */
export const chatUserAnswer = z.object({
  chatId: id,
  userId: id,
  unreads: z.number().int().nonnegative(),
  user: userRef,
});

/** A chat as the routes answer it (secondary §3). */
export const chatAnswer = z.object({
  id,
  uuid: z.string(),
  title: z.string(),
  ownerId: id.nullable(),
  lastMessage: z.string(),
  createdAt: wireDate,
  updatedAt: wireDate,
  users: z.array(chatUserAnswer),
});
export type ChatAnswer = z.infer<typeof chatAnswer>;

export const internalInternalChatMessageAnswer = z.object({
  id,
  chatId: id,
  senderId: id.nullable(),
  message: z.string(),
  createdAt: wireDate,
  sender: userRef.nullable(),
});
export type InternalChatMessageAnswer = z.infer<typeof internalInternalChatMessageAnswer>;

const chatPlan = 'useInternalChat' as const;

/** Internal chat (secondary §7): every route answers only to the chat's members. */
export const chatEndpoints = {
  listChats: endpoint({
    method: 'get',
    path: '/chats',
    summary: "The caller's chats, most recent first, with each member's unread count",
    tag: 'chats',
    plan: chatPlan,
    query: pageQuery,
    response: z.object({
      records: z.array(chatAnswer),
      count: z.number().int(),
      hasMore: z.boolean(),
    }),
  }),
  showChat: endpoint({
    method: 'get',
    path: '/chats/:id',
    summary: 'One chat of the caller',
    tag: 'chats',
    plan: chatPlan,
    params: idParams,
    response: chatAnswer,
  }),
  showChatByUuid: endpoint({
    method: 'get',
    path: '/chats/u/:uuid',
    summary: 'One chat of the caller, by the uuid of its /chats/{uuid} screen',
    tag: 'chats',
    plan: chatPlan,
    params: chatUuidParams,
    response: chatAnswer,
  }),
  createChat: endpoint({
    method: 'post',
    path: '/chats',
    summary: 'Creates a chat owned by the caller with the given users',
    tag: 'chats',
    plan: chatPlan,
    body: chatInput,
    status: 201,
    response: chatAnswer,
  }),
  updateChat: endpoint({
    method: 'put',
    path: '/chats/:id',
    summary: "Changes a chat's title or members (its owner only)",
    tag: 'chats',
    plan: chatPlan,
    params: idParams,
    body: chatUpdate,
    response: chatAnswer,
  }),
  deleteChat: endpoint({
    method: 'delete',
    path: '/chats/:id',
    summary: 'Deletes a chat and its messages (its owner only)',
    tag: 'chats',
    plan: chatPlan,
    params: idParams,
    response: messageAnswer,
  }),
  listChatMessages: endpoint({
    method: 'get',
    path: '/chats/:id/messages',
    summary: 'A page (20) of the chat messages, newest page first, oldest first within it',
    tag: 'chats',
    plan: chatPlan,
    params: idParams,
    query: chatMessagesQuery,
    response: z.object({
      records: z.array(internalInternalChatMessageAnswer),
      count: z.number().int(),
      hasMore: z.boolean(),
    }),
  }),
  sendChatMessage: endpoint({
    method: 'post',
    path: '/chats/:id/messages',
    summary: 'Sends a message to the chat',
    tag: 'chats',
    plan: chatPlan,
    params: idParams,
    body: chatMessageInput,
    status: 201,
    response: internalInternalChatMessageAnswer,
  }),
  readChat: endpoint({
    method: 'post',
    path: '/chats/:id/read',
    summary: "Clears the caller's unread count (the body's userId is ignored)",
    tag: 'chats',
    plan: chatPlan,
    params: idParams,
    body: chatReadInput,
    response: chatAnswer,
  }),
} as const;
