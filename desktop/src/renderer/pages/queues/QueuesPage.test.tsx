import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { COLOR_PALETTE } from '../../kit/ColorPicker';
import { admin, openPage, signedIn, writes } from '../../../../test/pages';
import { nextOptionNumber } from './OptionTree';

const settings = (scheduleType: string) => [{ key: 'scheduleType', value: scheduleType }];

function respond(scheduleType: string) {
  return (req: { method: string; path: string }) => {
    if (req.path === '/queue' && req.method === 'GET') return { status: 200, data: [] };
    if (req.path === '/settings') return { status: 200, data: settings(scheduleType) };
    if (req.path === '/queue-options') return { status: 200, data: [] };
    if (req.path === '/prompt' && req.method === 'GET')
      return { status: 200, data: { prompts: [] } };
    if (req.path === '/queueIntegration' && req.method === 'GET') {
      return { status: 200, data: { queueIntegrations: [], count: 0, hasMore: false } };
    }
    if (req.path === '/queue' && req.method === 'POST') {
      return { status: 201, data: { id: 7, name: 'Vendas', color: '#B80000', schedules: [] } };
    }
    return undefined;
  };
}

describe('queues page', () => {
  it('offers 49 distinct colours', () => {
    expect(new Set(COLOR_PALETTE).size).toBe(49);
  });

  it('numbers a new option after the highest of its level', () => {
    expect(nextOptionNumber([])).toBe('1');
    expect(nextOptionNumber([{ option: '1' }, { option: '3' }])).toBe('4');
  });

  it('refuses an empty or short name and colour and saves nothing', async () => {
    const { requests } = signedIn(admin(), respond('disabled'));
    await openPage('/queues');
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar fila' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).queryByRole('tab')).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await within(dialog).findAllByText('Required')).toHaveLength(2);
    fireEvent.change(within(dialog).getByLabelText('Nome'), { target: { value: 'V' } });
    fireEvent.change(within(dialog).getByLabelText('Cor'), { target: { value: '#1' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(within(dialog).getAllByText('Too Short!')).toHaveLength(2));
    expect(writes(requests)).toEqual([]);
  });

  it('with scheduleType queue, saves the default hours with the queue', async () => {
    const { requests } = signedIn(admin(), respond('queue'));
    await openPage('/queues');
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar fila' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('tab', { name: 'Horários de Atendimento' }));
    expect(within(dialog).getByText('Clique em salvar para registar as alterações')).toBeTruthy();
    expect(within(dialog).getByLabelText('Sábado Fim')).toHaveProperty('value', '12:00');
    fireEvent.click(within(dialog).getByRole('tab', { name: 'Dados da Fila' }));
    fireEvent.change(within(dialog).getByLabelText('Nome'), { target: { value: 'Vendas' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Escolher cor' }));
    fireEvent.click(await screen.findByRole('option', { name: '#B80000' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Queue saved successfully')).toBeTruthy();
    const body = writes(requests)[0]?.body as { schedules: { weekdayEn: string }[] };
    expect(body).toMatchObject({ name: 'Vendas', color: '#B80000' });
    expect(body.schedules.map((s) => s.weekdayEn)).toHaveLength(7);
  });

  it('never discards a typed option: it asks before closing and saves it with the queue', async () => {
    const { requests } = signedIn(admin(), (req: { method: string; path: string }) => {
      if (req.path === '/queue/7' && req.method === 'PUT') {
        return { status: 200, data: { id: 7, name: 'Vendas', color: '#B80000', schedules: [] } };
      }
      if (req.path === '/queue-options' && req.method === 'POST') {
        return { status: 201, data: { id: 1 } };
      }
      return respond('disabled')(req);
    });
    await openPage('/queues');
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar fila' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Nome'), { target: { value: 'Vendas' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Escolher cor' }));
    fireEvent.click(await screen.findByRole('option', { name: '#B80000' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Adicionar opção' }));
    fireEvent.change(within(dialog).getByLabelText('Título'), { target: { value: 'Financeiro' } });
    expect(await within(dialog).findByText('1 opção não salva')).toBeTruthy();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Fechar' }));
    const question = await screen.findByRole('dialog', { name: 'Descartar opções não salvas?' });
    fireEvent.click(within(question).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByText('Descartar opções não salvas?')).toBeNull());

    fireEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    await waitFor(() =>
      expect(writes(requests).find((r) => r.path === '/queue-options')?.body).toMatchObject({
        queueId: 7,
        parentId: null,
        option: '1',
        title: 'Financeiro',
      }),
    );
  });
});
