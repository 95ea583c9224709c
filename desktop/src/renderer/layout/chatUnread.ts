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
  /** Counts every change; a list answer never overwrites a chat changed after it was asked. */
  seq: number;
  changedAt: Record<number, number>;
  put(chats: readonly ChatAnswer[], me: number): void;
  /** A `GET /chats` answer asked when `seq` was `askedAt`: it replaces the list, except chats
   *  an event or a read answer changed since (their values are newer than the answer's). */
  load(chats: readonly ChatAnswer[], me: number, askedAt: number): void;
  drop(chatId: number): void;
}>()((set) => ({
  byChat: {},
  seq: 0,
  changedAt: {},
  put: (chats, me) =>
    set((s) => {
      const seq = s.seq + 1;
      const byChat = { ...s.byChat };
      const changedAt = { ...s.changedAt };
      for (const c of chats) {
        byChat[c.id] = unreadOf(c, me);
        changedAt[c.id] = seq;
      }
      return { byChat, changedAt, seq };
    }),
  load: (chats, me, askedAt) =>
    set((s) => {
      const byChat: Record<number, number> = {};
      for (const [id, n] of Object.entries(s.byChat)) {
        if ((s.changedAt[Number(id)] ?? 0) > askedAt) byChat[Number(id)] = n;
      }
      for (const c of chats) {
        if ((s.changedAt[c.id] ?? 0) <= askedAt) byChat[c.id] = unreadOf(c, me);
      }
      return { byChat };
    }),
  drop: (chatId) =>
    set((s) => {
      const seq = s.seq + 1;
      const byChat = { ...s.byChat };
      delete byChat[chatId];
      return { byChat, seq, changedAt: { ...s.changedAt, [chatId]: seq } };
    }),
}));

const unreadOf = (chat: ChatAnswer, me: number) =>
  chat.users.find((u) => u.userId === me)?.unreads ?? 0;

export const anyUnread = (byChat: Record<number, number>) =>
  Object.values(byChat).some((n) => n > 0);

/** Loads and follows the counts while the plan has internal chat; mounted once, by the shell. */
export function useChatUnreadFeed(enabled: boolean): boolean {
  const me = useSession((s) => s.user?.id);
  // Chat events are not in the change feed: reload on every (re)connect as well.
  const epoch = useRealtime((s) => s.resyncEpoch + s.connectedEpoch);
  useEffect(() => {
    if (!enabled || me === undefined) return;
    const askedAt = useChatUnread.getState().seq;
    api
      .call(chatEndpoints.listChats, { query: { pageNumber: 1, searchParam: '' } })
      .then((answer) => useChatUnread.getState().load(answer.records, me, askedAt))
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
