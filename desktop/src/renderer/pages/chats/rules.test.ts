import { CHAT_TITLE_REQUIRED, CHAT_USERS_REQUIRED, type ChatAnswer } from '@atende/shared';
import { describe, expect, it } from 'vitest';
import { chatFormProblem, unreadsOf, upsertChat } from './rules';

const chat = (id: number, updatedAt: string, unreads = 0): ChatAnswer => ({
  id,
  uuid: `u${id}`,
  title: `c${id}`,
  ownerId: 1,
  lastMessage: '',
  createdAt: updatedAt,
  updatedAt,
  users: [{ chatId: id, userId: 7, unreads, user: { id: 7, name: 'Ana' } }],
});

describe('internal chat rules (secondary §5)', () => {
  it.each([
    ['', [1], CHAT_TITLE_REQUIRED],
    ['   ', [1], CHAT_TITLE_REQUIRED],
    ['Equipe', [], CHAT_USERS_REQUIRED],
    ['', [], CHAT_TITLE_REQUIRED],
    ['Equipe', [1], null],
  ])('title %j with users %j → %s', (title, users, problem) => {
    expect(chatFormProblem(title, users)).toBe(problem);
  });

  it("counts only the caller's unreads", () => {
    expect(unreadsOf(chat(1, '2026-01-01', 3), 7)).toBe(3);
    expect(unreadsOf(chat(1, '2026-01-01', 3), 8)).toBe(0);
  });

  it('keeps the most recently updated chat first', () => {
    const list = [chat(1, '2026-01-02'), chat(2, '2026-01-01')];
    expect(upsertChat(list, chat(2, '2026-01-03')).map((c) => c.id)).toEqual([2, 1]);
  });
});
