import { Router } from 'express';
import { chatEndpoints as api } from '@atende/shared';
import type { AppContext } from '../../context.js';
import { serve } from '../../http/route.js';
import {
  createChat,
  deleteChat,
  listChats,
  listMessages,
  readChat,
  sendMessage,
  showChat,
  updateChat,
} from './chats.service.js';

/** Internal chat (secondary §7). Members only; the company and the reader come from the token. */
export function chatsRoutes(app: AppContext): Router {
  const router = Router();

  serve(router, app, api.listChats, ({ user, query }) =>
    listChats(app.ds, user.companyId, user.id, query.pageNumber, query.searchParam),
  );

  serve(router, app, api.showChatByUuid, ({ user, params }) =>
    showChat(app.ds, user.companyId, user.id, params.uuid),
  );

  serve(router, app, api.showChat, ({ user, params }) =>
    showChat(app.ds, user.companyId, user.id, params.id),
  );

  serve(router, app, api.createChat, ({ user, body }) =>
    createChat(app, user.companyId, user.id, body),
  );

  serve(router, app, api.updateChat, ({ user, params, body }) =>
    updateChat(app, user.companyId, user.id, params.id, body),
  );

  serve(router, app, api.deleteChat, async ({ user, params }) => {
    await deleteChat(app, user.companyId, user.id, params.id);
    return { message: 'Chat deleted' };
  });

  serve(router, app, api.listChatMessages, ({ user, params, query }) =>
    listMessages(app.ds, user.companyId, user.id, params.id, query.pageNumber),
  );

  serve(router, app, api.sendChatMessage, ({ user, params, body }) =>
    sendMessage(app, user.companyId, user.id, params.id, body.message),
  );

  // The body's userId (Whaticket sends one) is ignored: the reader is the token's user.
  serve(router, app, api.readChat, ({ user, params }) =>
    readChat(app, user.companyId, user.id, params.id),
  );

  return router;
}
