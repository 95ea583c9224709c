import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { admin, agent, openPage, signedIn, writes } from '../../../../test/pages';
import { renderApp } from '../../../../test/render';

const users = [
  { ...admin(), name: 'Ana Admin' },
  { ...agent(), name: 'Bruno Agente' },
];

function respond(req: { method: string; path: string; query?: Record<string, unknown> }) {
  if (req.path === '/users/' && req.method === 'GET') {
    const term = String(req.query?.searchParam ?? '').toLowerCase();
    return {
      status: 200,
      data: { users: users.filter((u) => u.name.toLowerCase().includes(term)), hasMore: false },
    };
  }
  if (req.path === '/queue') return { status: 200, data: [{ id: 3, name: 'Vendas' }] };
  if (req.path === '/whatsapp') return { status: 200, data: [] };
  return undefined;
}

async function openModal() {
  fireEvent.click(screen.getByRole('button', { name: 'Adicionar usuário' }));
  return screen.findByRole('dialog');
}

describe('users page', () => {
  it('lists id, name, e-mail and profile, and searches after 500 ms', async () => {
    const { requests } = signedIn(admin(), respond);
    await openPage('/users');
    expect(await screen.findByText('Bruno Agente')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Pesquisar'), { target: { value: 'ana' } });
    await waitFor(() => expect(screen.queryByText('Bruno Agente')).toBeNull(), { timeout: 2000 });
    expect(requests.some((r) => r.path === '/users/' && r.query?.searchParam === 'ana')).toBe(true);
  });

  it('shows the validation messages of admin §5 and saves nothing', async () => {
    const { requests } = signedIn(admin(), respond);
    await openPage('/users');
    const dialog = await openModal();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await within(dialog).findAllByText('Required')).toHaveLength(3);
    fireEvent.change(within(dialog).getByLabelText('Nome'), { target: { value: 'A' } });
    fireEvent.change(within(dialog).getByLabelText('Email'), { target: { value: 'not-mail' } });
    fireEvent.change(within(dialog).getByLabelText('Senha'), { target: { value: '1234' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await within(dialog).findByText('Invalid email')).toBeTruthy();
    expect(within(dialog).getAllByText('Too Short!')).toHaveLength(2);
    fireEvent.change(within(dialog).getByLabelText('Nome'), { target: { value: 'x'.repeat(51) } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await within(dialog).findByText('Too Long!')).toBeTruthy();
    expect(writes(requests)).toEqual([]);
  });

  it('sends profile and queues only for a user allowed to edit them', async () => {
    const { requests } = signedIn(admin(), (req) =>
      req.method === 'POST' && req.path === '/users'
        ? { status: 201, data: { ...agent({ id: 20 }), name: 'Carla' } }
        : respond(req),
    );
    await openPage('/users');
    const dialog = await openModal();
    fireEvent.change(within(dialog).getByLabelText('Nome'), { target: { value: 'Carla' } });
    fireEvent.change(within(dialog).getByLabelText('Email'), { target: { value: 'c@x.com' } });
    fireEvent.change(within(dialog).getByLabelText('Senha'), { target: { value: '12345' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(writes(requests)).toHaveLength(1));
    expect(writes(requests)[0]?.body).toMatchObject({
      name: 'Carla',
      email: 'c@x.com',
      profile: 'user',
      queueIds: [],
    });
  });

  it('keeps an agent off the page (route guard): no user modal to reach', async () => {
    signedIn(agent(), respond);
    await renderApp('/users');
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/tickets'), {
      timeout: 5000,
    });
    expect(screen.queryByRole('button', { name: 'Adicionar usuário' })).toBeNull();
  });
});
