import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { admin, agent, openPage, signedIn, writes } from '../../../../test/pages';

const respond = (req: { method: string; path: string }) =>
  req.path === '/tags/' && req.method === 'GET'
    ? {
        status: 200,
        data: {
          tags: [{ id: 1, name: 'VIP', color: '#B80000', kanban: 0, ticketsCount: 4 }],
          hasMore: false,
        },
      }
    : undefined;

describe('tags page', () => {
  it('shows the tag as a chip with its tickets count', async () => {
    signedIn(admin(), respond);
    await openPage('/tags');
    const row = await screen.findByTestId('tag-1');
    expect(within(row).getByText('VIP')).toBeTruthy();
    expect(within(row).getByText('4')).toBeTruthy();
  });

  it("says 'Obrigatório' and 'Mensagem muito curta' and saves nothing", async () => {
    const { requests } = signedIn(admin(), respond);
    await openPage('/tags');
    fireEvent.click(screen.getByRole('button', { name: 'Nova Tag' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await within(dialog).findByText('Obrigatório')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Nome'), { target: { value: 'ab' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await within(dialog).findByText('Mensagem muito curta')).toBeTruthy();
    expect(writes(requests)).toEqual([]);
  });

  it('shows the kanban switch to admin and supervisor only', async () => {
    signedIn(agent(), respond);
    await openPage('/tags');
    fireEvent.click(screen.getByRole('button', { name: 'Nova Tag' }));
    expect(within(await screen.findByRole('dialog')).queryByLabelText('Kanban')).toBeNull();
  });

  it('shows the kanban switch to a supervisor', async () => {
    signedIn(agent({ profile: 'supervisor' }), respond);
    await openPage('/tags');
    fireEvent.click(screen.getByRole('button', { name: 'Nova Tag' }));
    expect(within(await screen.findByRole('dialog')).getByLabelText('Kanban')).toBeTruthy();
  });
});
