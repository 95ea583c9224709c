import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { admin, agent, openPage, signedIn, writes } from '../../../../test/pages';
import { attachmentName } from '../../kit';
import { canManage } from './rules';

const record = (id: number, extra: object) => ({
  id,
  userId: 9,
  shortcode: `atalho${id}`,
  message: 'Olá',
  geral: false,
  mediaPath: null,
  mediaName: null,
  ...extra,
});
const records = [record(1, {}), record(2, { geral: true, userId: 1, mediaName: 'tabela.pdf' })];

const respond = (req: { method: string; path: string }) =>
  req.path === '/quick-messages' && req.method === 'GET'
    ? { status: 200, data: { records, hasMore: false } }
    : undefined;

describe('quick messages page', () => {
  it("shows the media name or 'Sem anexo'", async () => {
    signedIn(admin(), respond);
    await openPage('/quick-messages');
    expect(
      within(await screen.findByTestId('quick-message-1')).getByText('Sem anexo'),
    ).toBeTruthy();
    expect(within(screen.getByTestId('quick-message-2')).getByText('tabela.pdf')).toBeTruthy();
  });

  it('lets a user edit only their own non-general messages', async () => {
    signedIn(agent(), respond);
    await openPage('/quick-messages');
    const own = await screen.findByTestId('quick-message-1');
    expect(within(own).getByRole('button', { name: 'Editar' })).toBeTruthy();
    expect(within(screen.getByTestId('quick-message-2')).queryByRole('button')).toBeNull();
    expect(canManage('supervisor', 5, records[1]!)).toBe(true);
  });

  it("requires a shortcode ('Obrigatório') and saves nothing", async () => {
    const { requests } = signedIn(admin(), respond);
    await openPage('/quick-messages');
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByLabelText('Global (toda a empresa)')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await within(dialog).findByText('Obrigatório')).toBeTruthy();
    expect(writes(requests)).toEqual([]);
  });

  it('hides the general flag from a user and replaces spaces in file names', async () => {
    signedIn(agent(), respond);
    await openPage('/quick-messages');
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).queryByLabelText('Global (toda a empresa)')).toBeNull();
    expect(attachmentName('minha tabela de preços.pdf')).toBe('minha_tabela_de_preços.pdf');
  });
});
