import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { addLocalDays } from '@atende/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HttpRequest } from '../src/renderer/platform';
import { usePrefs } from '../src/renderer/ui/prefs';
import { allPlanFlags, makeUser } from './fixtures';
import { installFakePlatform, renderApp } from './render';
import { setViewportWidth } from './setup-dom';

function signedIn(
  user = makeUser(),
  extra: (req: HttpRequest) => { status: number; data?: unknown } | undefined = () => undefined,
) {
  localStorage.setItem('token', 'stored');
  return installFakePlatform((req) => {
    if (req.path === '/auth/refresh_token') return { status: 200, data: { token: 't', user } };
    if (req.path.startsWith('/companies/listPlan'))
      return { status: 200, data: { plan: allPlanFlags } };
    if (req.path === '/version') return { status: 200, data: { version: '2.0.1' } };
    return extra(req);
  });
}

const drawerPaper = async () =>
  (await screen.findByTestId('drawer', {}, { timeout: 5000 })).querySelector(
    '.MuiDrawer-paper',
  ) as HTMLElement;

afterEach(() => {
  vi.useRealTimers();
  setViewportWidth(1024);
});

describe('app shell (core §2)', () => {
  it('above 1200 px the 240 px drawer starts open with the version at its bottom', async () => {
    setViewportWidth(1280);
    signedIn(makeUser({ profile: 'admin' }));
    await renderApp('/tickets');
    const paper = await drawerPaper();
    expect(paper.style.width || getComputedStyle(paper).width).toBe('240px');
    expect(await screen.findByText('Versão 2.0.1')).toBeTruthy();
    expect(within(paper).getByText('Administração')).toBeTruthy();
  });

  it('at 1200 px and below it starts collapsed, without the version', async () => {
    setViewportWidth(1200);
    signedIn(makeUser({ profile: 'admin' }));
    await renderApp('/tickets');
    const paper = await drawerPaper();
    expect(getComputedStyle(paper).width).toBe('56px');
    await act(async () => undefined);
    expect(screen.queryByTestId('app-version')).toBeNull();
  });

  it('under 600 px the drawer is a temporary overlay opened from the menu button', async () => {
    setViewportWidth(599);
    signedIn();
    await renderApp('/tickets');
    await screen.findByRole('button', { name: 'Abrir menu' }, { timeout: 5000 });
    expect(screen.queryByText('Atendimentos', { selector: '.MuiListItemText-primary' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Abrir menu' }));
    expect(
      await screen.findByText('Atendimentos', { selector: '.MuiListItemText-primary' }),
    ).toBeTruthy();
    expect(document.querySelector('.MuiModal-root')).not.toBeNull();
  });

  it('a user sees neither the dashboard nor the Administration block', async () => {
    setViewportWidth(1280);
    signedIn(makeUser({ profile: 'user' }));
    await renderApp('/tickets');
    const paper = await drawerPaper();
    await within(paper).findByText('Atendimentos');
    expect(within(paper).queryByText('Dashboard')).toBeNull();
    expect(within(paper).queryByText('Administração')).toBeNull();
    expect(within(paper).queryByText('Conexões')).toBeNull();
  });

  it("shows the connections '!' badge from the check made 2 s after load", async () => {
    setViewportWidth(1280);
    const { requests } = signedIn(makeUser({ profile: 'admin' }), (req) =>
      req.path === '/whatsapp/'
        ? { status: 200, data: [{ id: 1, name: 'Loja', status: 'qrcode', updatedAt: '' }] }
        : undefined,
    );
    await renderApp('/tickets');
    const paper = await drawerPaper();
    await within(paper).findByText('Conexões');
    expect(requests.some((r) => r.path === '/whatsapp/')).toBe(false);
    await waitFor(() => expect(within(paper).getByText('!')).toBeTruthy(), { timeout: 4000 });
    expect(requests.find((r) => r.path === '/whatsapp/')?.query).toEqual({ session: 0 });
  });

  it('greets an admin with the due date and warns when fewer than 5 days remain', async () => {
    const user = makeUser({ profile: 'admin' });
    // Three calendar days ahead in the company's zone (São Paulo), at its noon: the count is of
    // local days, so an instant 3 × 24 h ahead is 4 days from 21:00 on.
    user.company.dueDate = `${addLocalDays(Date.now(), 3)}T15:00:00.000Z`;
    signedIn(user);
    await renderApp('/tickets');
    expect(
      await screen.findByText('Sua assinatura vence em 3 dia(s)', {}, { timeout: 5000 }),
    ).toBeTruthy();
  });

  it('greets with the due date when the subscription is far from due', async () => {
    const user = makeUser({ profile: 'admin' });
    user.company.dueDate = '2099-12-31T00:00:00.000Z';
    signedIn(user);
    await renderApp('/tickets');
    const greeting = await screen.findByTestId('greeting', {}, { timeout: 5000 });
    expect(greeting.textContent).toBe(
      'Olá Ana, seja bem-vindo(a) a Empresa! (Ativo até 31/12/2099)',
    );
  });

  it('toggles and stores the theme; stores the volume in steps of 0.1', async () => {
    signedIn();
    await renderApp('/tickets');
    const before = usePrefs.getState().theme;
    fireEvent.click(
      await screen.findByRole('button', { name: 'Alternar tema' }, { timeout: 5000 }),
    );
    const after = before === 'dark' ? 'light' : 'dark';
    expect(usePrefs.getState().theme).toBe(after);
    expect(localStorage.getItem('preferredTheme')).toBe(after);
    act(() => usePrefs.getState().setVolume(0.44));
    expect(localStorage.getItem('volume')).toBe('0.4');
    act(() => usePrefs.getState().setVolume(7));
    expect(usePrefs.getState().volume).toBe(1);
  });

  it('logs out to /login', async () => {
    const { requests } = signedIn();
    await renderApp('/tickets');
    fireEvent.click(await screen.findByRole('button', { name: 'Conta' }, { timeout: 5000 }));
    fireEvent.click(await screen.findByText('Sair'));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/login'));
    expect(requests.some((r) => r.method === 'DELETE' && r.path === '/auth/logout')).toBe(true);
    expect(localStorage.getItem('token')).toBeNull();
  });
});
