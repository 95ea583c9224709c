import { describe, expect, it } from 'vitest';
import { shouldNotifyChat } from './chat-policy';

describe('internal chat notifications', () => {
  it.each([
    [{ senderId: 2 }, 1, { focused: true, pathname: '/tickets' }, true],
    [{ senderId: 1 }, 1, { focused: false, pathname: '/tickets' }, false],
    [{ senderId: 2 }, 1, { focused: true, pathname: '/chats/u1' }, false],
    [{ senderId: 2 }, 1, { focused: false, pathname: '/chats/u1' }, true],
    [{ senderId: 2 }, 1, { focused: true, pathname: '/chats/u2' }, true],
    [{ senderId: 2 }, undefined, { focused: false, pathname: '/' }, false],
  ])('%j to user %s in %j → %s', (message, me, context, expected) => {
    expect(shouldNotifyChat(message, { uuid: 'u1' }, me, context)).toBe(expected);
  });
});
