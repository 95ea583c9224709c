import { fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { admin, openPage, signedIn, writes } from '../../../../test/pages';

const LIST = {
  id: 3,
  companyId: 1,
  name: 'Clientes VIP',
  contactsCount: 12,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};
const ITEM = {
  id: 7,
  companyId: 1,
  contactListId: 3,
  name: 'Maria Souza',
  number: '5511987654321',
  email: 'maria@ex.com',
  isWhatsappValid: true,
  createdAt: LIST.createdAt,
  updatedAt: LIST.updatedAt,
};

const respond = (req: { method: string; path: string }) => {
  if (req.method !== 'GET') return undefined;
  if (req.path === '/contact-lists')
    return { status: 200, data: { records: [LIST], count: 1, hasMore: false } };
  if (req.path === '/contact-lists/3') return { status: 200, data: LIST };
  if (req.path === '/contact-lists/3/imports') return { status: 200, data: [] };
  if (req.path === '/contact-list-items') {
    return { status: 200, data: { contacts: [ITEM], count: 1, hasMore: false } };
  }
  return undefined;
};

// The campaign routes exist only with the browser-storage flag cshow (core §2).
beforeEach(() => localStorage.setItem('cshow', '1'));

describe('contact lists pages', () => {
  it('lists name and contacts count, with the sample and the contacts of each list', async () => {
    signedIn(admin(), respond);
    await openPage('/contact-lists');
    const row = await screen.findByTestId('contact-list-3');
    expect(within(row).getByText('Clientes VIP')).toBeTruthy();
    expect(within(row).getByText('12')).toBeTruthy();
    expect(within(row).getByRole('button', { name: 'Baixar planilha de exemplo' })).toBeTruthy();
    expect(within(row).getByRole('button', { name: 'Ver contatos' })).toBeTruthy();
    expect(within(row).getByRole('button', { name: 'Excluir' })).toBeTruthy();
  });

  it("says 'Too Short!' for a one-letter list name and saves nothing", async () => {
    const { requests } = signedIn(admin(), respond);
    await openPage('/contact-lists');
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Nome'), { target: { value: 'A' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await within(dialog).findByText('Too Short!')).toBeTruthy();
    expect(writes(requests)).toEqual([]);
  });

  // The page is an admin route (core §2); the server refuses deletes without the permission.
  it("shows the items with the WhatsApp icon, delete for 'contacts-page:deleteContact'", async () => {
    signedIn(admin(), respond);
    await openPage('/contact-lists/3/contacts');
    const row = await screen.findByTestId('contact-list-item-7');
    expect(within(row).getByText('Maria Souza')).toBeTruthy();
    expect(within(row).getByText('+55 (11) 98765-4321')).toBeTruthy();
    expect(within(row).getByLabelText('WhatsApp válido')).toBeTruthy();
    expect(within(row).getByRole('button', { name: 'Excluir' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Importar' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Voltar' })).toBeTruthy();
  });
});
