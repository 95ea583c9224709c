import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { allPlanFlags, makeUser } from './fixtures';
import { installFakePlatform, renderApp } from './render';

function signedIn() {
  localStorage.setItem('token', 'stored');
  const user = makeUser({ id: 9, name: 'Ana' });
  return installFakePlatform((req) => {
    if (req.path === '/auth/refresh_token') return { status: 200, data: { token: 't', user } };
    if (req.path.startsWith('/companies/listPlan'))
      return { status: 200, data: { plan: allPlanFlags } };
    if (req.path === '/tickets') return { status: 200, data: { tickets: [], hasMore: false } };
    if (req.path === '/users/9' && req.method === 'PUT') {
      return { status: 200, data: { ...user, ...(req.body as object) } };
    }
    if (req.path === '/auth/logout') return { status: 200, data: {} };
    return undefined;
  });
}

async function openProfile() {
  fireEvent.click(await screen.findByRole('button', { name: 'Conta' }, { timeout: 5000 }));
  fireEvent.click(await screen.findByRole('menuitem', { name: 'Perfil' }));
  return screen.findByRole('dialog', { name: 'Meu perfil' });
}

describe("account menu 'Perfil' (issue 13)", () => {
  it('changes the own name through PUT /users/{id}, without a password', async () => {
    const { requests } = signedIn();
    await renderApp('/tickets');
    const dialog = await openProfile();
    fireEvent.change(within(dialog).getByLabelText('Nome'), { target: { value: 'Ana Souza' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Perfil atualizado.')).toBeTruthy();
    const put = requests.find((r) => r.method === 'PUT');
    expect(put).toMatchObject({ path: '/users/9', body: { name: 'Ana Souza' } });
    expect(put?.body).not.toHaveProperty('password');
  });

  it('refuses a one-letter name and sends nothing', async () => {
    const { requests } = signedIn();
    await renderApp('/tickets');
    const dialog = await openProfile();
    fireEvent.change(within(dialog).getByLabelText('Nome'), { target: { value: 'A' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await within(dialog).findByText('Too Short!')).toBeTruthy();
    expect(requests.some((r) => r.method === 'PUT')).toBe(false);
  });

  it('a new password is saved and the user signs in again', async () => {
    const { requests } = signedIn();
    await renderApp('/tickets');
    const dialog = await openProfile();
    fireEvent.change(within(dialog).getByLabelText('Nova senha'), {
      target: { value: 'NovaSenha1' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/login'), {
      timeout: 5000,
    });
    expect(requests.find((r) => r.method === 'PUT')?.body).toMatchObject({
      name: 'Ana',
      password: 'NovaSenha1',
    });
  });
});
