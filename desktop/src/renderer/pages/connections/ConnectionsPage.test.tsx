import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { admin, agent, openPage, signedIn, writes } from '../../../../test/pages';
import { renderApp } from '../../../../test/render';

const row = (id: number, status: string, extra: object = {}) => ({
  id,
  name: `Conexão ${id}`,
  number: null,
  status,
  qrcode: status === 'qrcode' ? 'qr-text' : '',
  retries: 0,
  updatedAt: '2024-01-05T12:00:00.000Z',
  isDefault: id === 1,
  provider: 'beta',
  queues: [],
  ...extra,
});

const list = [
  row(1, 'CONNECTED'),
  row(2, 'qrcode'),
  row(3, 'DISCONNECTED'),
  row(4, 'TIMEOUT'),
  row(5, 'OPENING'),
];

function respond(req: { method: string; path: string }) {
  if (req.path === '/whatsapp' && req.method === 'GET') return { status: 200, data: list };
  if (req.path === '/queue') return { status: 200, data: [] };
  if (req.path === '/whatsapp/providers')
    return { status: 200, data: { providers: ['beta', 'simulator'] } };
  return undefined;
}

describe('connections page', () => {
  it('shows each status with its session buttons', async () => {
    signedIn(admin(), respond);
    await openPage('/connections');
    const buttons = async (id: number) =>
      within(await screen.findByTestId(`connection-${id}`))
        .getAllByRole('button')
        .map((b) => [b.textContent, (b as HTMLButtonElement).disabled]);
    expect(await buttons(2)).toEqual(expect.arrayContaining([['QR CODE', false]]));
    expect(await buttons(3)).toEqual(
      expect.arrayContaining([
        ['Tentar novamente', false],
        ['Novo QR CODE', false],
      ]),
    );
    expect(await buttons(4)).toEqual(expect.arrayContaining([['Desconectar', false]]));
    expect(await buttons(5)).toEqual(expect.arrayContaining([['Conectando', true]]));
    expect(screen.getAllByText(/^05\/01\/24 \d{2}:\d{2}$/)).toHaveLength(5);
  });

  it('restarts every connection with the warning of admin §8', async () => {
    const { requests } = signedIn(admin(), (req) =>
      req.path === '/whatsapp-restart/' ? { status: 200, data: {} } : respond(req),
    );
    await openPage('/connections');
    fireEvent.click(screen.getByRole('button', { name: 'Reiniciar Conexões' }));
    expect(await screen.findByText('Aguarde... reiniciando...')).toBeTruthy();
    expect(writes(requests).map((r) => r.path)).toEqual(['/whatsapp-restart/']);
  });

  it('keeps a user without the permissions off the page and its buttons', async () => {
    signedIn(agent(), respond);
    // The route guard sends an agent to / and on to /tickets (issue 13).
    await renderApp('/connections');
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/tickets'), {
      timeout: 5000,
    });
    expect(screen.queryByTestId('connection-2')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Adicionar WhatsApp' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Reiniciar Conexões' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'QR CODE' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Editar' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Mensagens não processadas' })).toBeNull();
  });

  it('refuses an empty or short name and saves nothing', async () => {
    const { requests } = signedIn(admin(), respond);
    await openPage('/connections');
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar WhatsApp' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await within(dialog).findByText('Required')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Nome'), { target: { value: 'a' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await within(dialog).findByText('Too Short!')).toBeTruthy();
    await waitFor(() => expect(writes(requests)).toEqual([]));
  });

  it("lists a connection's dead letters to the admin", async () => {
    signedIn(admin(), (req) =>
      req.path === '/whatsapp/2/dead-letters'
        ? {
            status: 200,
            data: {
              hasMore: false,
              deadLetters: [
                {
                  id: 7,
                  eventName: 'message',
                  event: { name: 'message', payload: { id: 'X1', body: 'sem remetente' } },
                  error: 'message X1 has no sender identity',
                  attempts: 2,
                  receivedAt: '2024-01-05T12:00:00.000Z',
                },
              ],
            },
          }
        : respond(req),
    );
    await openPage('/connections');
    const row = await screen.findByTestId('connection-2');
    fireEvent.click(within(row).getByRole('button', { name: 'Mensagens não processadas' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('sem remetente')).toBeTruthy();
    expect(within(dialog).getByText('message X1 has no sender identity')).toBeTruthy();
    expect(within(dialog).getByText('Mensagens não processadas: Conexão 2')).toBeTruthy();
  });

  it('offers the simulator provider only when the server has it on', async () => {
    signedIn(admin(), respond);
    await openPage('/connections');
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar WhatsApp' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: 'Provedor' }));
    expect(await screen.findByRole('option', { name: 'Simulador' })).toBeTruthy();
  });

  it('does not offer the simulator when the server has it off', async () => {
    signedIn(admin(), (req) =>
      req.path === '/whatsapp/providers'
        ? { status: 200, data: { providers: ['beta'] } }
        : respond(req),
    );
    await openPage('/connections');
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar WhatsApp' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: 'Provedor' }));
    expect(await screen.findByRole('option', { name: 'WhatsApp (Baileys)' })).toBeTruthy();
    expect(screen.queryByRole('option', { name: 'Simulador' })).toBeNull();
  });
});
