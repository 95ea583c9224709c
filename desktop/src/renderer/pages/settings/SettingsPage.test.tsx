import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { admin, openPage, signedIn, writes } from '../../../../test/pages';

function respond(scheduleType: string) {
  return (req: { method: string; path: string }) => {
    if (req.path === '/settings') {
      return {
        status: 200,
        data: [
          { key: 'scheduleType', value: scheduleType },
          { key: 'userRating', value: 'disabled' },
        ],
      };
    }
    if (req.path.startsWith('/settings/')) return { status: 200, data: {} };
    if (req.path === '/companies/4' && req.method === 'GET') {
      return { status: 200, data: { id: 4, schedules: [] } };
    }
    if (req.path === '/companies/4/schedules') return { status: 200, data: {} };
    return undefined;
  };
}

describe('settings page', () => {
  it("saves a switch with 'Atualizando...' then 'Operação atualizada com sucesso.'", async () => {
    const { requests } = signedIn(admin(), respond('disabled'));
    await openPage('/settings');
    expect(screen.queryByRole('tab', { name: 'Horários' })).toBeNull();
    fireEvent.mouseDown(await screen.findByRole('combobox', { name: 'Avaliações' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Habilitado' }));
    expect(await screen.findByText('Atualizando...')).toBeTruthy();
    expect(
      await screen.findByText('Operação atualizada com sucesso.', {}, { timeout: 5000 }),
    ).toBeTruthy();
    expect(writes(requests)).toMatchObject([
      { method: 'PUT', path: '/settings/userRating', body: { value: 'enabled' } },
    ]);
  });

  it('with scheduleType company, saves seven weekdays and refuses a bad time', async () => {
    const { requests } = signedIn(admin(), respond('company'));
    await openPage('/settings');
    fireEvent.click(await screen.findByRole('tab', { name: 'Horários' }));
    const monday = await screen.findByLabelText('Segunda-feira Início');
    fireEvent.change(monday, { target: { value: '8h' } });
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Use o formato HH:MM')).toBeTruthy();
    expect(writes(requests)).toEqual([]);
    fireEvent.change(monday, { target: { value: '08:00' } });
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Horários atualizados com sucesso.')).toBeTruthy();
    await waitFor(() => expect(writes(requests)).toHaveLength(1));
    const body = writes(requests)[0]?.body as { schedules: { startTime: string }[] };
    expect(body.schedules).toHaveLength(7);
    expect(body.schedules[0]?.startTime).toBe('08:00');
    expect(within(document.body).queryByText('Use o formato HH:MM')).toBeNull();
  });
});
