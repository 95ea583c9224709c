import { TIME_ZONE_SETTING, isSubscriptionExpired } from '@atende/shared';
import { create } from 'zustand';
import { createApiClient } from '../api/client';
import { ApiError } from '../api/errors';
import type { AuthAnswer, PlanFlags, User } from '../api/types';
import { getPlatform } from '../platform';
import { readStorage, STORAGE_KEYS, writeStorage } from './storage';

export type SessionStatus = 'loading' | 'authenticated' | 'anonymous';

export interface SessionState {
  status: SessionStatus;
  token: string | null;
  user: User | null;
  /** Plan feature flags; null until loaded (features stay hidden meanwhile). */
  plan: PlanFlags | null;
  bootstrap(): Promise<void>;
  login(email: string, password: string): Promise<User>;
  logout(): Promise<void>;
  refresh(): Promise<boolean>;
  clear(): void;
  setUser(user: User): void;
}

/** Public calls: no bearer token, no session rules. */
export const publicApi = createApiClient(getPlatform, {
  getToken: () => null,
  refresh: async () => false,
  onUnauthorized: () => undefined,
});

let refreshing: Promise<boolean> | null = null;

export const useSession = create<SessionState>()((set, get) => {
  const accept = ({ token, user }: AuthAnswer) => {
    writeStorage(STORAGE_KEYS.token, token);
    writeStorage(STORAGE_KEYS.companyId, String(user.companyId));
    set({ status: 'authenticated', token, user });
  };

  const loadPlan = async (companyId: number) => {
    try {
      const { plan } = await api.get<{ plan: PlanFlags }>(`/companies/listPlan/${companyId}`);
      set({ plan });
    } catch {
      set({ plan: null });
    }
  };

  return {
    status: 'loading',
    token: null,
    user: null,
    plan: null,

    async bootstrap() {
      const stored = readStorage(STORAGE_KEYS.token);
      if (!stored) return set({ status: 'anonymous' });
      set({ token: stored });
      // On page load with a stored token, the session is refreshed (core §4). A refusal (401/403)
      // has cleared the stored session in refresh(); any other failure (server down, 5xx) leaves
      // it stored, so the other tabs and the next reload stay signed in.
      if (!(await get().refresh())) return set({ status: 'anonymous', token: null, user: null });
      const user = get().user;
      if (user) await loadPlan(user.companyId);
    },

    async login(email, password) {
      const answer = await publicApi.post<AuthAnswer>('/auth/login', { email, password });
      const due = answer.user.company?.dueDate;
      const zone = answer.user.company?.settings?.find((s) => s.key === TIME_ZONE_SETTING)?.value;
      if (due && isSubscriptionExpired(due, Date.now(), zone)) {
        throw new ApiError(403, 'ERR_SUBSCRIPTION_EXPIRED', undefined, { date: due });
      }
      accept(answer);
      await loadPlan(answer.user.companyId);
      return answer.user;
    },

    async logout() {
      try {
        await api.delete('/auth/logout');
      } catch {
        // The local session ends whatever the server says.
      }
      get().clear();
    },

    refresh() {
      refreshing ??= (async () => {
        try {
          accept(await publicApi.post<AuthAnswer>('/auth/refresh_token'));
          return true;
        } catch (error) {
          if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
            get().clear();
          }
          return false;
        } finally {
          refreshing = null;
        }
      })();
      return refreshing;
    },

    clear() {
      writeStorage(STORAGE_KEYS.token, null);
      writeStorage(STORAGE_KEYS.companyId, null);
      set({ status: 'anonymous', token: null, user: null, plan: null });
    },

    setUser(user) {
      set({ user });
    },
  };
});

/** The authenticated client every page uses. */
export const api = createApiClient(getPlatform, {
  getToken: () => useSession.getState().token,
  refresh: () => useSession.getState().refresh(),
  onUnauthorized: () => useSession.getState().clear(),
});
