import { CHAT_TITLE_REQUIRED, CHAT_USERS_REQUIRED } from '@atende/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { agent, signedIn, writes } from '../../../../test/pages';
import { renderApp } from '../../../../test/render';

const UUID = '7b1f2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const chat = {
  id: 5,
  uuid: UUID,
  title: 'Equipe',
  ownerId: 1,
  lastMessage: 'Oi',
  createdAt: '2026-01-01T10:00:00Z',
  updatedAt: '2026-01-01T10:00:00Z',
  users: [
    { chatId: 5, userId: 1, unreads: 0, user: { id: 1, name: 'Ana' } },
    { chatId: 5, userId: 9, unreads: 4, user: { id: 9, name: 'Bruno' } },
  ],
};
const message = (id: number) => ({
  id,
  chatId: 5,
  senderId: 1,
  message: `m${id}`,
  createdAt: '2026-01-01T10:00:00Z',
  sender: { id: 1, name: 'Ana' },
});

/** The page is a lazy chunk: a cold run on a loaded machine takes a while. */
async function openPage(path: string) {
  await renderApp(path);
  await screen.findByRole('heading', { level: 1 }, { timeout: 45_000 });
}
const SLOW = 60_000;

const respond = (req: { method: string; path: string; query?: Record<string, unknown> }) => {
  if (req.path === '/chats' && req.method === 'GET')
    return { status: 200, data: { records: [chat], count: 1, hasMore: false } };
  if (req.path === '/chats/5/messages' && req.method === 'GET') {
    const page = Number(req.query?.pageNumber ?? 1);
    const ids = page === 1 ? [21, 22, 23] : [1, 2];
    return { status: 200, data: { records: ids.map(message), count: 23, hasMore: page === 1 } };
  }
  if (req.path === '/chats/5/read') return { status: 200, data: chat };
  if (req.path === '/users/list') return { status: 200, data: [{ id: 1, name: 'Ana' }] };
  return undefined;
};

describe('internal chat page (secondary §2, §5, §9)', () => {
  it(
    "opening a chat reads it as the caller (no userId) and shows the caller's count",
    async () => {
      const { requests } = signedIn(agent(), respond);
      await openPage('/chats');
      expect(within(await screen.findByTestId('chat-5')).getByText('4')).toBeTruthy();
      fireEvent.click(screen.getByTestId('chat-5'));
      await screen.findByText('m23');
      await waitFor(() =>
        expect(writes(requests).map((r) => [r.method, r.path, r.body])).toEqual([
          ['POST', '/chats/5/read', {}],
        ]),
      );
      // Not the owner: no edit or delete.
      expect(screen.queryByRole('button', { name: /^Excluir$/ })).toBeNull();
    },
    SLOW,
  );

  it(
    'loads older messages only when scrolled under 600 px from the top',
    async () => {
      const { requests } = signedIn(agent(), respond);
      await openPage(`/chats/${UUID}`);
      await screen.findByText('m23');
      const pages = () =>
        requests.filter((r) => r.path === '/chats/5/messages').map((r) => r.query?.pageNumber);
      const thread = screen.getByTestId('chat-messages');
      thread.scrollTop = 700;
      fireEvent.scroll(thread);
      expect(pages()).toEqual([1]);
      thread.scrollTop = 599;
      fireEvent.scroll(thread);
      await screen.findByText('m1');
      expect(pages()).toEqual([1, 2]);
    },
    SLOW,
  );

  it(
    'desktop app, server unreachable: the cached chats and thread, read only, sending disabled',
    async () => {
      const { platform, requests } = signedIn(agent(), (req) => {
        // No answer at all from the server for the chats (a network failure, not a refusal).
        if (req.path.startsWith('/chats')) throw new TypeError('Failed to fetch');
        return respond(req);
      });
      const read: unknown[] = [];
      Object.assign(platform, {
        offlineChats: {
          chats: async () => [chat],
          // Newest first, as the cache answers; an older page is empty.
          messages: async (options: { chatId: number; before?: number }) => {
            read.push(options);
            return options.before ? [] : [23, 22, 21].map(message);
          },
        },
      });
      await openPage(`/chats/${UUID}`);
      expect((await screen.findByTestId('chats-offline')).textContent).toContain(
        'Sem conexão com o servidor',
      );
      await screen.findByText('m23');
      expect(screen.getAllByTestId('chat-message').map((m) => m.textContent)).toEqual([
        expect.stringContaining('m21'),
        expect.stringContaining('m22'),
        expect.stringContaining('m23'),
      ]);
      expect(read).toEqual([{ chatId: 5, limit: 20 }]);
      expect(screen.getByTestId('chat-offline-send').textContent).toContain(
        'não é possível enviar',
      );
      const input = screen.getByTestId('chat-input') as HTMLTextAreaElement;
      expect(input.disabled).toBe(true);
      expect((screen.getByRole('button', { name: 'Enviar' }) as HTMLButtonElement).disabled).toBe(
        true,
      );
      expect((screen.getByRole('button', { name: 'Nova' }) as HTMLButtonElement).disabled).toBe(
        true,
      );
      fireEvent.keyDown(input, { key: 'Enter' });
      // Nothing is written: no read call, no message.
      expect(writes(requests)).toEqual([]);
    },
    SLOW,
  );

  it(
    'the web build with the server unreachable shows no cached chats',
    async () => {
      signedIn(agent(), (req) => {
        if (req.path.startsWith('/chats')) throw new TypeError('Failed to fetch');
        return respond(req);
      });
      await openPage('/chats');
      await screen.findByText('Nenhuma conversa.');
      expect(screen.queryByTestId('chats-offline')).toBeNull();
    },
    SLOW,
  );

  it(
    'refuses a chat without title or users with the browser alerts, sending nothing',
    async () => {
      const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
      const { requests } = signedIn(agent(), respond);
      await openPage('/chats');
      fireEvent.click(screen.getByRole('button', { name: 'Nova' }));
      const dialog = await screen.findByRole('dialog');
      fireEvent.click(within(dialog).getByTestId('chat-save'));
      fireEvent.change(within(dialog).getByTestId('chat-title'), { target: { value: 'Equipe' } });
      fireEvent.click(within(dialog).getByTestId('chat-save'));
      expect(alert.mock.calls.map((c) => c[0])).toEqual([CHAT_TITLE_REQUIRED, CHAT_USERS_REQUIRED]);
      expect(writes(requests).filter((r) => r.path === '/chats')).toEqual([]);
      alert.mockRestore();
    },
    SLOW,
  );
});
