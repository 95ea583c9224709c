import { chatEndpoints, type ChatAnswer } from '@atende/shared';
import { useEffect } from 'react';
import { create } from 'zustand';
import { api } from '../api';
import { useSession } from '../session/store';
import { useCompanyEvent, useRealtime } from '../session/useRealtime';

/**
 * The caller's unread count per internal chat, shared by the menu dot and the top-bar popover.
 * Filled from `GET /chats` and kept by the chat events (which reach members only, each carrying
 * the chat with every member's count as the server computed it).
 */
export const useChatUnread = create<{
  byChat: Record<number, number>;
  put(chats: readonly ChatAnswer[], me: number, replace?: boolean): void;
  drop(chatId: number): void;
}>()((set) => ({
  byChat: {},
  put: (chats, me, replace = false) =>
    set((s) => {
      const next = replace ? {} : { ...s.byChat };
      for (const c of chats) next[c.id] = c.users.find((u) => u.userId === me)?.unreads ?? 0;
      return { byChat: next };
    }),
  drop: (chatId) =>
    set((s) => {
      const next = { ...s.byChat };
      delete next[chatId];
      return { byChat: next };
    }),
}));

export const anyUnread = (byChat: Record<number, number>) =>
  Object.values(byChat).some((n) => n > 0);

/** Loads and follows the counts while the plan has internal chat; mounted once, by the shell. */
export function useChatUnreadFeed(enabled: boolean): boolean {
  const me = useSession((s) => s.user?.id);
  // Chat events are not in the change feed: reload on every (re)connect as well.
  const epoch = useRealtime((s) => s.resyncEpoch + s.connectedEpoch);
  useEffect(() => {
    if (!enabled || me === undefined) return;
    api
      .call(chatEndpoints.listChats, { query: { pageNumber: 1, searchParam: '' } })
      .then((answer) => useChatUnread.getState().put(answer.records, me, true))
      .catch(() => undefined);
  }, [enabled, me, epoch]);
  useCompanyEvent('chat', (payload) => {
    if (!enabled || me === undefined) return;
    const data = payload as { action: string; chat?: ChatAnswer; id?: number };
    if (data.action === 'delete' && typeof data.id === 'number') {
      useChatUnread.getState().drop(data.id);
    } else if (data.chat?.users) {
      useChatUnread.getState().put([data.chat], me);
    }
  });
  return useChatUnread((s) => enabled && anyUnread(s.byChat));
}
