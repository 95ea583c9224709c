import type { ChatAnswer, InternalChatMessageAnswer } from '@atende/shared';

/**
 * Whether a new internal-chat message notifies: someone else sent it, and the user is not
 * looking at that very chat in a focused window.
 */
export function shouldNotifyChat(
  message: Pick<InternalChatMessageAnswer, 'senderId'>,
  chat: Pick<ChatAnswer, 'uuid'>,
  me: number | undefined,
  context: { focused: boolean; pathname: string },
): boolean {
  if (me === undefined || message.senderId === me) return false;
  const open = /^\/chats\/([^/]+)/.exec(context.pathname)?.[1];
  return !(context.focused && open === chat.uuid);
}
