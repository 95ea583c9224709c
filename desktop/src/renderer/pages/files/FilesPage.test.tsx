import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { admin, openPage, signedIn, writes } from '../../../../test/pages';

const FILE_LIST = {
  id: 5,
  companyId: 1,
  userId: 1,
  name: 'Catálogo',
  message: 'Veja',
  options: [
    {
      id: 1,
      fileListId: 5,
      name: 'capa.png',
      path: 'a.png',
      mediaType: 'image',
      mediaUrl: '/media/a.png',
    },
  ],
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

const respond = (req: { method: string; path: string }) =>
  req.method === 'GET' && req.path === '/files'
    ? { status: 200, data: { files: [FILE_LIST], count: 1, hasMore: false } }
    : undefined;

describe('files page', () => {
  it('lists the file lists with how many files each has', async () => {
    signedIn(admin(), respond);
    await openPage('/files');
    const row = await screen.findByTestId('file-list-5');
    expect(within(row).getByText('Catálogo')).toBeTruthy();
    expect(within(row).getByText('1')).toBeTruthy();
  });

  it("says 'nome muito curto' under 3 characters and saves nothing", async () => {
    const { requests } = signedIn(admin(), respond);
    await openPage('/files');
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Nome'), { target: { value: 'ab' } });
    fireEvent.change(within(dialog).getByLabelText('Mensagem'), { target: { value: 'oi' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await within(dialog).findByText('nome muito curto')).toBeTruthy();
    expect(writes(requests)).toEqual([]);
  });
});
