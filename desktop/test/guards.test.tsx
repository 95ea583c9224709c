import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { User } from '../src/renderer/api/types';
import { ADMIN_ROUTES } from '../src/renderer/routes/AppRoutes';
import { allPlanFlags, makeUser } from './fixtures';
import { installFakePlatform, renderApp } from './render';

function signedIn(user: User) {
  localStorage.setItem('token', 'stored');
  return installFakePlatform((req) => {
    if (req.path === '/auth/refresh_token') return { status: 200, data: { token: 't', user } };
    if (req.path.startsWith('/companies/listPlan'))
      return { status: 200, data: { plan: allPlanFlags } };
    if (req.path === '/version') return { status: 200, data: { version: '2.0.1' } };
    if (req.path === '/users') return { status: 200, data: { users: [], hasMore: false } };
    if (req.path === '/whatsapp') return { status: 200, data: [] };
    if (req.path === '/queue') return { status: 200, data: [] };
    if (req.path === '/settings') return { status: 200, data: [] };
    if (req.path === '/tickets') return { status: 200, data: { tickets: [], hasMore: false } };
    if (req.path === '/announcements')
      return { status: 200, data: { records: [], count: 0, hasMore: false } };
    return undefined;
  });
}

const location = () => screen.getByTestId('location').textContent;

describe('route guards by permission (core §6)', () => {
  it.each(ADMIN_ROUTES)(
    'an agent opening %s is sent to / (and from there to /tickets)',
    async (path) => {
      signedIn(makeUser({ profile: 'user' }));
      await renderApp(path);
      // The first case also loads the tickets page's chunk cold: slow on a loaded machine.
      await waitFor(() => expect(location()).toBe('/tickets'), { timeout: 15_000 });
    },
    30_000,
  );

  it.each(['/users', '/queues', '/connections', '/settings', '/files'])(
    'an admin opens %s',
    async (path) => {
      signedIn(makeUser({ profile: 'admin' }));
      await renderApp(path);
      // The page's heading is the signal that the guard let it render.
      await screen.findByTestId('drawer', {}, { timeout: 5000 });
      await waitFor(() => expect(document.querySelector('main, [role="main"]')).toBeTruthy());
      expect(location()).toBe(path);
    },
  );

  it('announcements send an admin who is not a super user to /', async () => {
    signedIn(makeUser({ profile: 'admin', super: false }));
    await renderApp('/announcements');
    // An admin lands on the dashboard at /.
    await waitFor(() => expect(location()).toBe('/'), { timeout: 5000 });
  });

  it('announcements open for a super user', async () => {
    signedIn(makeUser({ profile: 'admin', super: true }));
    await renderApp('/announcements');
    await screen.findByRole('heading', { name: 'Informativos' }, { timeout: 5000 });
    expect(location()).toBe('/announcements');
  });
});
