import { screen } from '@testing-library/react';
import type { HttpRequest } from '../src/renderer/platform';
import { allPlanFlags, makeUser } from './fixtures';
import { installFakePlatform, renderApp } from './render';
import type { User } from '../src/renderer/api/types';

export type Answer = { status: number; data?: unknown } | undefined;

/** Signs `user` in on a fake platform whose other answers come from `respond`. */
export function signedIn(user: User, respond: (req: HttpRequest) => Answer) {
  localStorage.setItem('token', 'stored');
  return installFakePlatform((req) => {
    if (req.path === '/auth/refresh_token') return { status: 200, data: { token: 't', user } };
    if (req.path.startsWith('/companies/listPlan'))
      return { status: 200, data: { plan: allPlanFlags } };
    if (req.path === '/version') return { status: 200, data: { version: '1.0.0' } };
    return respond(req);
  });
}

export const admin = (overrides: Partial<User> = {}) =>
  makeUser({ id: 1, profile: 'admin', ...overrides });
export const agent = (overrides: Partial<User> = {}) => makeUser({ id: 9, ...overrides });

export async function openPage(path: string) {
  const view = await renderApp(path);
  await screen.findByRole('heading', { level: 1 }, { timeout: 15_000 });
  return view;
}

/** The writes (anything but GET) the page sent. */
export const writes = (requests: HttpRequest[]) =>
  requests.filter((r) => r.method !== 'GET' && !r.path.startsWith('/auth/'));
