import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Message, Ticket } from '../src/renderer/api/types';
import type { HttpRequest } from '../src/renderer/platform';
import { allPlanFlags, makeMessage, makeTicket, makeUser } from './fixtures';
import { installFakePlatform, renderApp } from './render';
import { setViewportWidth } from './setup-dom';

const MIN = 60_000;

const ticket = (id: number, over: Partial<Ticket> = {}): Ticket =>
  makeTicket(id, {
    status: 'open',
    contact: {
      id,
      name: `Cliente Número ${id}`,
      number: '5511987654321',
      profilePicUrl: '',
      email: '',
    },
    userId: 9,
    user: { id: 9, name: 'Ana' },
    queueId: 3,
    queue: { id: 3, name: 'Vendas', color: '#00aa00' },
    whatsappId: 1,
    whatsapp: { id: 1, name: 'Loja' },
    lastMessage: `Mensagem longa do cliente número ${id}`,
    unreadMessages: 0,
    updatedAt: new Date(Date.now() - 5 * MIN).toISOString(),
    ...over,
  });

function serve(
  tickets: Record<string, Ticket[]>,
  extra?: (req: HttpRequest) => { status: number; data?: unknown } | undefined,
) {
  localStorage.setItem('token', 'stored');
  return installFakePlatform((req) => {
    if (req.path === '/auth/refresh_token')
      return { status: 200, data: { token: 't', user: makeUser() } };
    if (req.path.startsWith('/companies/listPlan'))
      return { status: 200, data: { plan: allPlanFlags } };
    if (req.path === '/version') return { status: 200, data: { version: '1' } };
    if (req.method === 'GET' && req.path === '/tickets') {
      const status = String(req.query?.status ?? 'search');
      return { status: 200, data: { tickets: tickets[status] ?? [], hasMore: false } };
    }
    return extra?.(req);
  });
}

afterEach(() => setViewportWidth(1024));

describe('tickets page (core §2, §4)', () => {
  it('lists assigned tickets with queue, connection and agent tags, time-since label and count badge', async () => {
    setViewportWidth(1280);
    const { requests } = serve({
      open: [ticket(1), ticket(2, { queue: null, queueId: null })],
      pending: [ticket(3, { status: 'pending', userId: null, user: null })],
    });
    await renderApp('/tickets');
    const item = await screen.findByTestId('ticket-1', {}, { timeout: 5000 });
    expect(within(item).getByText('Cliente Número 1')).toBeTruthy();
    expect(within(item).getByText('Vendas')).toBeTruthy();
    expect(within(item).getByText('Loja')).toBeTruthy();
    expect(within(item).getByText('Ana')).toBeTruthy();
    expect(within(item).getByTestId('time-since').textContent).toBe('5 m');
    expect(within(item).getByTestId('time-since').dataset.color).toBe('green');
    expect(within(screen.getByTestId('ticket-2')).getByText('SEM FILA')).toBeTruthy();
    const openQuery = requests.find(
      (r) => r.path === '/tickets' && r.query?.status === 'open',
    )?.query;
    expect(openQuery).toMatchObject({ pageNumber: 1, showAll: 'false', queueIds: '[3]' });
  });

  it('never shows an unread badge on a resolved ticket (issue 13)', async () => {
    setViewportWidth(1280);
    serve({
      open: [ticket(1, { unreadMessages: 2 }), ticket(2, { status: 'closed', unreadMessages: 3 })],
    });
    await renderApp('/tickets');
    const open = await screen.findByTestId('ticket-1', {}, { timeout: 5000 });
    expect(open.querySelector('.MuiBadge-badge')?.textContent).toBe('2');
    const closed = screen.getByTestId('ticket-2');
    expect(closed.querySelector('.MuiBadge-badge')).toBeNull();
  });

  it('shortens names to 10 characters and previews to 20 under 600 px', async () => {
    setViewportWidth(599);
    serve({ open: [ticket(1)] });
    await renderApp('/tickets');
    const item = await screen.findByTestId('ticket-1', {}, { timeout: 5000 });
    expect(within(item).getByText('Cliente Nú...')).toBeTruthy();
    expect(within(item).getByText('Mensagem longa do cl...')).toBeTruthy();
    expect(
      screen.getByText('Atendimentos', { selector: '.MuiBottomNavigationAction-label' }),
    ).toBeTruthy();
  });

  it('accepts a pending ticket: PUT status open with the user, then opens it', async () => {
    setViewportWidth(1280);
    const pending = ticket(3, { status: 'pending', userId: null, user: null });
    const { requests } = serve({ pending: [pending] }, (req) => {
      if (req.method === 'PUT')
        return { status: 200, data: { ...pending, status: 'open', userId: 9 } };
      if (req.path === '/tickets/u/uuid-3')
        return { status: 200, data: { ...pending, status: 'open', userId: 9 } };
      if (req.path === '/messages/3')
        return { status: 200, data: { messages: [], hasMore: false } };
      return undefined;
    });
    await renderApp('/tickets');
    fireEvent.click(await screen.findByRole('tab', { name: /Aguardando/ }, { timeout: 5000 }));
    const item = await screen.findByTestId('ticket-3', {}, { timeout: 5000 });
    fireEvent.click(within(item).getByRole('button', { name: 'Aceitar' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/tickets/uuid-3'));
    expect(requests.find((r) => r.method === 'PUT')).toMatchObject({
      path: '/tickets/3',
      body: { status: 'open', userId: 9, queueId: 3 },
    });
  });

  it("refuses another queue's ticket with 'Acesso não permitido' and returns to /tickets", async () => {
    setViewportWidth(1280);
    serve({}, (req) =>
      req.path === '/tickets/u/uuid-8'
        ? {
            status: 200,
            data: ticket(8, { queueId: 4, queue: { id: 4, name: 'Suporte', color: '#f00' } }),
          }
        : undefined,
    );
    await renderApp('/tickets/uuid-8');
    expect(await screen.findByText('Acesso não permitido', {}, { timeout: 5000 })).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/tickets'));
  });

  it('shows the thread with a day separator and sends a reply, ignoring blank input', async () => {
    setViewportWidth(1280);
    const messages: Message[] = [
      makeMessage(1, { body: 'Olá, preciso de ajuda', createdAt: '2025-01-01T10:00:00Z' }),
      makeMessage(2, { body: 'Claro!', fromMe: true, ack: 4, createdAt: '2025-01-01T10:01:00Z' }),
    ];
    const { requests } = serve({ open: [ticket(1)] }, (req) => {
      if (req.path === '/tickets/u/uuid-1') return { status: 200, data: ticket(1) };
      if (req.method === 'GET' && req.path === '/messages/1')
        return { status: 200, data: { messages, hasMore: false } };
      if (req.method === 'POST' && req.path === '/messages/1') return { status: 200, data: {} };
      return undefined;
    });
    await renderApp('/tickets/uuid-1');
    expect(await screen.findByText('Olá, preciso de ajuda', {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByLabelText('Lida')).toBeTruthy();
    const input = screen.getByLabelText('Digite uma mensagem');
    fireEvent.change(input, { target: { value: '   ' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    fireEvent.change(input, { target: { value: 'Posso ajudar' } });
    await act(async () => {
      fireEvent.keyDown(input, { key: 'Enter' });
    });
    const posts = requests.filter((r) => r.method === 'POST' && r.path === '/messages/1');
    expect(posts).toHaveLength(1);
    expect(posts[0]?.body).toMatchObject({ fromMe: true, body: '*Ana:*\nPosso ajudar' });
  });

  it('reads the open thread once per burst of customer messages, never for a closed ticket (issue 13)', async () => {
    setViewportWidth(1280);
    const first = makeMessage(1, { body: 'Oi', createdAt: '2025-01-01T10:00:00Z' });
    const { requests, serverEmits } = serve(
      { open: [ticket(1)], closed: [ticket(5, { status: 'closed', unreadMessages: 3 })] },
      (req) => {
        if (req.path === '/tickets/u/uuid-1') return { status: 200, data: ticket(1) };
        if (req.method === 'GET' && req.path === '/messages/1')
          return { status: 200, data: { messages: [first], hasMore: false } };
        if (req.method === 'PUT' && req.path === '/messages/1')
          return { status: 200, data: { ticketId: 1, unreadMessages: 0 } };
        return undefined;
      },
    );
    await renderApp('/tickets/uuid-1');
    expect(await screen.findByText('Oi', {}, { timeout: 5000 })).toBeTruthy();
    const puts = () => requests.filter((r) => r.method === 'PUT' && r.path === '/messages/1');
    const event = (id: number, fromMe: boolean, over: Partial<Ticket> = {}) => ({
      action: 'create',
      message: { ...first, id, body: `m${id}`, fromMe },
      ticket: ticket(1, { unreadMessages: fromMe ? 0 : 1, ...over }),
    });
    vi.useFakeTimers();
    try {
      act(() => {
        serverEmits('company-4-appMessage', event(11, false));
        serverEmits('company-4-appMessage', event(12, false));
        serverEmits('company-4-appMessage', event(13, false));
      });
      act(() => void vi.advanceTimersByTime(600));
      expect(puts()).toHaveLength(1);
      // Our own message, or one on a closed ticket (nothing unread there): no call.
      act(() => {
        serverEmits('company-4-appMessage', event(14, true));
        serverEmits(
          'company-4-appMessage',
          event(15, false, { status: 'closed', unreadMessages: 1 }),
        );
      });
      act(() => void vi.advanceTimersByTime(600));
      expect(puts()).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
