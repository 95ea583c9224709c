import type { ChatAnswer, InternalChatMessageAnswer } from '@atende/shared';
import { useNavigate } from 'react-router-dom';
import { getPlatform } from '../platform';
import { useSession } from '../session/store';
import { useCompanyEvent } from '../session/useRealtime';
import { usePrefs } from '../ui/prefs';
import { shouldNotifyChat } from './chat-policy';
import { chime } from './useMessageNotifications';

/** A desktop notification and the chime for a new internal-chat message; a click opens it. */
export function useChatNotifications(enabled: boolean): void {
  const me = useSession((s) => s.user?.id);
  const navigate = useNavigate();
  useCompanyEvent('chat', (payload) => {
    const data = payload as {
      action: string;
      newMessage?: InternalChatMessageAnswer;
      chat?: ChatAnswer;
    };
    if (!enabled || data.action !== 'new-message' || !data.newMessage || !data.chat) return;
    // The HashRouter of the desktop keeps the route in the hash; the web build in the path.
    const pathname = window.location.hash.startsWith('#/')
      ? window.location.hash.slice(1)
      : window.location.pathname;
    const context = { focused: document.hasFocus(), pathname };
    if (!shouldNotifyChat(data.newMessage, data.chat, me, context)) return;
    const chat = data.chat;
    getPlatform().notify({
      title: chat.title,
      body: `${data.newMessage.sender?.name ?? ''}: ${data.newMessage.message}`,
      tag: `chat-${chat.uuid}`,
      onClick: () => navigate(`/chats/${chat.uuid}`),
    });
    chime(usePrefs.getState().volume);
  });
}
