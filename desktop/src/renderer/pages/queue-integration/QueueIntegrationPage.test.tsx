import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { admin, openPage, signedIn, writes } from '../../../../test/pages';
import { allPlanFlags } from '../../../../test/fixtures';
import { installFakePlatform, renderApp } from '../../../../test/render';

const row = (id: number, type: string, name: string) => ({
  id,
  companyId: 1,
  type,
  name,
  projectName: name,
  jsonContent: '',
  projectId: type === 'dialogflow' ? 'loja-123' : null,
  credential: { set: type === 'dialogflow', last4: null, masked: '' },
  signingSecret: { set: false, last4: null, masked: '' },
  language: 'pt-BR',
  urlN8N: '',
  typebotSlug: '',
  typebotExpires: 1,
  typebotDelayMessage: 1000,
  typebotKeywordFinish: '',
  typebotKeywordRestart: '',
  typebotUnknownMessage: '',
  typebotRestartMessage: '',
  createdAt: '2025-01-01T10:00:00.000Z',
  updatedAt: '2025-01-01T10:00:00.000Z',
});

const ROWS = [
  row(1, 'dialogflow', 'Agente Google'),
  row(2, 'n8n', 'Fluxo n8n'),
  row(3, 'webhook', 'CRM'),
  row(4, 'typebot', 'Bot da Loja'),
];

const respond = (req: { method: string; path: string }) =>
  req.path === '/queueIntegration/' && req.method === 'GET'
    ? { status: 200, data: { queueIntegrations: ROWS, count: 4, hasMore: false } }
    : undefined;

describe('queue integrations page', () => {
  it('shows the count in the title, a type icon, the id and the name', async () => {
    signedIn(admin(), respond);
    await openPage('/queue-integration');
    expect(await screen.findByRole('heading', { name: 'Integrações (4)' })).toBeTruthy();
    for (const r of ROWS) {
      const line = await screen.findByTestId(`queue-integration-${r.id}`);
      expect(line.querySelector(`[data-type="${r.type}"] svg`)).toBeTruthy();
      expect(within(line).getByText(r.name)).toBeTruthy();
    }
  });

  it('lowercases the search it sends', async () => {
    const { requests } = signedIn(admin(), respond);
    await openPage('/queue-integration');
    fireEvent.change(screen.getByLabelText('Pesquisar'), { target: { value: 'Bot LOJA' } });
    await waitFor(
      () =>
        expect(
          requests.some(
            (r) => r.path === '/queueIntegration/' && r.query?.searchParam === 'bot loja',
          ),
        ).toBe(true),
      { timeout: 3_000 },
    );
  });

  it('asks before deleting, titled with the name', async () => {
    signedIn(admin(), respond);
    await openPage('/queue-integration');
    const line = await screen.findByTestId('queue-integration-3');
    fireEvent.click(within(line).getByRole('button', { name: 'Excluir' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Excluir CRM?')).toBeTruthy();
  });

  it('refuses a short name and sends nothing; fields follow the type', async () => {
    const { requests } = signedIn(admin(), respond);
    await openPage('/queue-integration');
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar projeto' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByLabelText('Typebot - Slug')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('Nome'), { target: { value: 'a' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await within(dialog).findByText('Too Short!')).toBeTruthy();
    expect(writes(requests)).toEqual([]);
  });

  it('a plan without integrations: the spec message, then back to /', async () => {
    localStorage.setItem('token', 'stored');
    installFakePlatform((req) => {
      if (req.path === '/auth/refresh_token')
        return { status: 200, data: { token: 't', user: admin() } };
      if (req.path.startsWith('/companies/listPlan'))
        return { status: 200, data: { plan: { ...allPlanFlags, useIntegrations: false } } };
      if (req.path === '/version') return { status: 200, data: { version: '1.0.0' } };
      return respond(req);
    });
    await renderApp('/queue-integration');
    expect(
      await screen.findByText(
        'Esta empresa não possui permissão para acessar essa página! Estamos lhe redirecionando.',
        undefined,
        { timeout: 15_000 },
      ),
    ).toBeTruthy();
    await waitFor(() => expect(window.location.pathname).toBe('/'), { timeout: 3_000 });
  });
});
