import { fireEvent, screen, within } from '@testing-library/react';
import i18next from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { admin, openPage, signedIn, writes } from '../../../../test/pages';
import { renderApp } from '../../../../test/render';
import { scheduleTitle } from './ScheduleDialog';
import { defaultSendAt } from './time';

const contact = { id: 5, name: 'Sofia Agenda', number: '5511955554444', email: '', extraInfo: [] };
const respond = (req: { method: string; path: string }) => {
  if (req.method === 'GET' && req.path.startsWith('/schedules'))
    return { status: 200, data: { schedules: [], count: 0, hasMore: false } };
  if (req.method === 'GET' && req.path === '/contacts/5') return { status: 200, data: contact };
  if (req.method === 'GET' && req.path === '/whatsapp') return { status: 200, data: [] };
  return undefined;
};

describe('schedules page (secondary §2, core §4/§5)', () => {
  // The calendar is a large chunk: load it once before the clock of the first test starts.
  beforeAll(async () => {
    await import('./SchedulesPage');
  }, 120_000);

  it('a new schedule: one hour ahead, DD/MM/YYYY, the spec messages, nothing saved', async () => {
    const { requests } = signedIn(admin(), respond);
    await openPage('/schedules');
    fireEvent.click(screen.getByRole('button', { name: 'Novo agendamento' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Mensagem Pendente')).toBeTruthy();
    const ahead = defaultSendAt(Date.now(), 'America/Sao_Paulo');
    const date = within(dialog).getByTestId('schedule-date') as HTMLInputElement;
    expect(date.value).toBe(ahead.date);
    expect(date.value).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
    fireEvent.change(within(dialog).getByTestId('schedule-body'), { target: { value: 'Oi' } });
    fireEvent.change(date, { target: { value: '' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await within(dialog).findByText('Mensagem muito curta')).toBeTruthy();
    // The contact and the date are required.
    expect(await within(dialog).findAllByText('Obrigatório')).toHaveLength(2);
    fireEvent.change(date, { target: { value: '31/02/2030' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await within(dialog).findByText('Data inválida')).toBeTruthy();
    expect(writes(requests)).toEqual([]);
  }, 60_000);

  it('?contactId= opens the create dialog for that contact', async () => {
    signedIn(admin(), respond);
    // The dialog opens over the page (which it hides from the accessibility tree).
    await renderApp('/schedules?contactId=5');
    const dialog = await screen.findByRole('dialog', {}, { timeout: 15_000 });
    expect(await within(dialog).findByDisplayValue(/Sofia Agenda/)).toBeTruthy();
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it("opens on the company's today, not the browser's (22:30 in São Paulo is 01:30 UTC)", async () => {
    // The browser's zone is UTC here: its day is already the 24th, the company's is the 23rd.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-24T01:30:00Z'));
    expect(new Date().getDate()).toBe(24);
    const evening = {
      id: 9,
      body: 'Lembrete da noite',
      sendAt: '2026-11-24T01:00:00.000Z',
      sentAt: null,
      status: 'PENDENTE',
      contactId: 5,
      contact,
      ticketId: null,
      whatsappId: null,
      mediaPath: null,
      mediaName: null,
      companyId: 1,
      userId: 1,
      createdAt: '2026-11-23T12:00:00.000Z',
      updatedAt: '2026-11-23T12:00:00.000Z',
    };
    signedIn(admin(), (req) =>
      req.method === 'GET' && req.path.startsWith('/schedules')
        ? { status: 200, data: { schedules: [evening], count: 1, hasMore: false } }
        : respond(req),
    );
    await openPage('/schedules');
    fireEvent.click(screen.getByRole('button', { name: 'Agenda' }));
    expect(await screen.findByText(/Lembrete da noite/, {}, { timeout: 10_000 })).toBeTruthy();
  }, 60_000);

  it("titles the dialog 'Mensagem ' plus the status, or 'Erro de Envio'", async () => {
    signedIn(admin(), respond);
    await openPage('/schedules');
    const t = i18next.t.bind(i18next) as (key: string, o?: Record<string, unknown>) => string;
    expect(scheduleTitle(t, 'ERRO')).toBe('Erro de Envio');
    expect(scheduleTitle(t, 'ENVIADA')).toBe('Mensagem Enviada');
    expect(scheduleTitle(t, 'PERDIDA')).toBe('Mensagem Perdida');
    expect(scheduleTitle(t, undefined)).toBe('Mensagem Pendente');
  });
});
