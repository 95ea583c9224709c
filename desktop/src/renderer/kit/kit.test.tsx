import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { admin, openPage, signedIn, writes } from '../../../test/pages';

/** The kit as the tags and quick-message pages use it. */
const tag = (id: number, name: string) => ({ id, name, color: '#B80000', kanban: 0 });

function tagsServer(pages: Record<number, { tags: unknown[]; hasMore: boolean }>) {
  return (req: { method: string; path: string; query?: Record<string, unknown> }) => {
    if (req.path === '/tags/' && req.method === 'GET') {
      return { status: 200, data: pages[Number(req.query?.pageNumber ?? 1)] };
    }
    if (req.path.startsWith('/tags/') && req.method === 'DELETE') return { status: 204 };
    return undefined;
  };
}

describe('admin page kit', () => {
  it('applies the company event live: create, update, delete; a malformed payload is dropped', async () => {
    const { serverEmits } = signedIn(
      admin(),
      tagsServer({ 1: { tags: [tag(1, 'VIP')], hasMore: false } }),
    );
    await openPage('/tags');
    await screen.findByTestId('tag-1');
    act(() => serverEmits('company-4-tag', { action: 'create', tag: tag(2, 'Novo') }));
    expect(within(await screen.findByTestId('tag-2')).getByText('Novo')).toBeTruthy();
    act(() => serverEmits('company-4-tag', { action: 'update', tag: tag(1, 'Ouro') }));
    expect(within(screen.getByTestId('tag-1')).getByText('Ouro')).toBeTruthy();
    act(() => serverEmits('company-4-tag', { action: 'delete', tagId: 2 }));
    expect(screen.queryByTestId('tag-2')).toBeNull();
    // The tag event's schema wants a numeric id: this one is not applied.
    act(() => serverEmits('company-4-tag', { action: 'create', tag: { id: 'x', name: 'Mau' } }));
    expect(screen.queryByText('Mau')).toBeNull();
  });

  it('asks admin §8 before deleting, then deletes on the server and from the list', async () => {
    const { requests } = signedIn(
      admin(),
      tagsServer({ 1: { tags: [tag(1, 'VIP'), tag(2, 'Outro')], hasMore: false } }),
    );
    await openPage('/tags');
    const row = await screen.findByTestId('tag-1');
    fireEvent.click(within(row).getByRole('button', { name: 'Excluir' }));
    const question = await screen.findByRole('dialog', { name: 'Excluir a tag VIP?' });
    expect(within(question).getByText('Deseja realmente excluir esse registro?')).toBeTruthy();
    expect(writes(requests)).toEqual([]);
    fireEvent.click(within(question).getByRole('button', { name: 'Confirmar' }));
    expect(await screen.findByText('Tag excluída com sucesso.')).toBeTruthy();
    expect(writes(requests).map((r) => `${r.method} ${r.path}`)).toEqual(['DELETE /tags/1']);
    await waitFor(() => expect(screen.queryByTestId('tag-1')).toBeNull());
    expect(screen.getByTestId('tag-2')).toBeTruthy();
  });

  it('asks for the next page near the bottom and appends it without duplicates', async () => {
    const { requests } = signedIn(
      admin(),
      tagsServer({
        1: { tags: [tag(1, 'Um'), tag(2, 'Dois')], hasMore: true },
        2: { tags: [tag(2, 'Dois'), tag(3, 'Três')], hasMore: false },
      }),
    );
    await openPage('/tags');
    await screen.findByTestId('tag-2');
    fireEvent.scroll(screen.getByTestId('scroll-area'));
    await screen.findByTestId('tag-3');
    expect(screen.getAllByTestId(/^tag-/)).toHaveLength(3);
    expect(requests.filter((r) => r.path === '/tags/').map((r) => r.query?.pageNumber)).toEqual([
      1, 2,
    ]);
  });

  it('uploads the picked attachment after the save, its spaces made underscores', async () => {
    const saved = {
      id: 5,
      userId: 1,
      shortcode: 'preco',
      message: '',
      geral: false,
      mediaPath: null,
      mediaName: null,
    };
    const { requests } = signedIn(admin(), (req) => {
      if (req.path === '/quick-messages' && req.method === 'GET') {
        return { status: 200, data: { records: [], hasMore: false } };
      }
      if (req.path === '/quick-messages' && req.method === 'POST') {
        return { status: 201, data: saved };
      }
      if (req.path === '/quick-messages/5/media-upload') return { status: 200, data: {} };
      if (req.path === '/quick-messages/5') {
        return { status: 200, data: { ...saved, mediaName: 'tabela_de_precos.pdf' } };
      }
      return undefined;
    });
    await openPage('/quick-messages');
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Atalho'), { target: { value: 'preco' } });
    const file = new File(['%PDF'], 'tabela de precos.pdf', { type: 'application/pdf' });
    fireEvent.change(within(dialog).getByTestId('quick-message-media-input'), {
      target: { files: [file] },
    });
    expect(within(dialog).getByTestId('quick-message-media-name').textContent).toBe(
      'tabela_de_precos.pdf',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Resposta rápida salva com sucesso.')).toBeTruthy();
    const upload = writes(requests).find((r) => r.path === '/quick-messages/5/media-upload');
    expect((upload?.body as FormData).get('file')).toHaveProperty('name', 'tabela_de_precos.pdf');
    expect(
      within(await screen.findByTestId('quick-message-5')).getByText('tabela_de_precos.pdf'),
    ).toBeTruthy();
  });
});
