import { CHAT_TITLE_REQUIRED, CHAT_USERS_REQUIRED, type ChatAnswer } from '@atende/shared';
import { ApiError } from '../../api/errors';

/** Secondary §9: older messages load when the thread is scrolled under 600 px from the top. */
export const OLDER_MESSAGES_THRESHOLD_PX = 600;
/** Core §9: narrow screens (two tabs) are under 600 px wide. */
export const NARROW_MAX_PX = 600;

/** The caller's unread count in a chat (their own messages never count). */
export const unreadsOf = (chat: Pick<ChatAnswer, 'users'>, userId: number | undefined): number =>
  chat.users.find((u) => u.userId === userId)?.unreads ?? 0;

/** Secondary §5: the chat dialog's two browser alerts, or null when it may be saved. */
export function chatFormProblem(title: string, users: readonly number[]): string | null {
  if (!title.trim()) return CHAT_TITLE_REQUIRED;
  if (users.length === 0) return CHAT_USERS_REQUIRED;
  return null;
}

/** A chat list in the order the server gives it: the most recently updated first. */
export function upsertChat(list: ChatAnswer[], chat: ChatAnswer): ChatAnswer[] {
  const rest = list.filter((c) => c.id !== chat.id);
  return [chat, ...rest].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.id - a.id);
}

/**
 * A request that got no answer at all (the server unreachable), not a refusal: the desktop app
 * then reads its cache.
 */
export const unreachable = (error: unknown): boolean => !(error instanceof ApiError);
