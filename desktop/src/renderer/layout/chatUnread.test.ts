import type { ChatAnswer } from '@atende/shared';
import { beforeEach, describe, expect, it } from 'vitest';
import { anyUnread, useChatUnread } from './chatUnread';

const ME = 7;
const chat = (id: number, unreads: number) =>
  ({ id, users: [{ chatId: id, userId: ME, unreads }] }) as unknown as ChatAnswer;

describe('the shell’s chat unread counts', () => {
  beforeEach(() => useChatUnread.setState({ byChat: {}, seq: 0, changedAt: {} }));

  it('a list answer asked before a read does not bring the dot back', () => {
    const store = useChatUnread.getState();
    const askedAt = store.seq;
    store.put([chat(1, 0)], ME); // the read call's answer arrives first
    store.load([chat(1, 2), chat(2, 0)], ME, askedAt); // then the list computed before it
    expect(useChatUnread.getState().byChat).toEqual({ 1: 0, 2: 0 });
    expect(anyUnread(useChatUnread.getState().byChat)).toBe(false);
  });

  it('a list answer asked after the last change replaces the counts', () => {
    const store = useChatUnread.getState();
    store.put([chat(1, 0), chat(3, 4)], ME);
    store.load([chat(1, 2)], ME, useChatUnread.getState().seq);
    expect(useChatUnread.getState().byChat).toEqual({ 1: 2 });
  });

  it('a chat deleted after the list was asked stays gone', () => {
    const store = useChatUnread.getState();
    store.put([chat(1, 1)], ME);
    const askedAt = useChatUnread.getState().seq;
    store.drop(1);
    store.load([chat(1, 1)], ME, askedAt);
    expect(useChatUnread.getState().byChat).toEqual({});
  });
});
