import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { admin, openPage, signedIn, writes } from '../../../../test/pages';
import { allPlanFlags } from '../../../../test/fixtures';
import { installFakePlatform, renderApp } from '../../../../test/render';

const prompt = {
  id: 3,
  companyId: 1,
  name: 'Assistente',
  prompt: 'Você atende a loja.',
  apiKey: '••••f6a1',
  voice: 'texto',
  voiceKey: '',
  voiceRegion: '',
  maxTokens: 100,
  temperature: 1,
  maxMessages: 10,
  queueId: 2,
  baseUrl: 'https://api.openai.com/v1',
  model: 'gpt-4o-mini',
  queue: { id: 2, name: 'Suporte', color: '#000000' },
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
};

const respond = (req: { method: string; path: string }) => {
  if (req.path === '/prompt' && req.method === 'GET')
    return { status: 200, data: { prompts: [prompt], hasMore: false } };
  if (req.path === '/prompt/usage')
    return {
      status: 200,
      data: {
        since: '2026-01-01T00:00:00Z',
        promptTokens: 900,
        completionTokens: 334,
        totalTokens: 1234,
        requests: 7,
        prompts: [],
      },
    };
  if (req.path === '/queue') return { status: 200, data: [{ id: 2, name: 'Suporte' }] };
  return undefined;
};

describe('prompts page', () => {
  it('lists name, queue and max tokens, with the credit warning and the month use', async () => {
    signedIn(admin(), respond);
    await openPage('/prompts');
    const row = await screen.findByTestId('prompt-3');
    expect(within(row).getByText('Assistente')).toBeTruthy();
    expect(within(row).getByText('Suporte')).toBeTruthy();
    expect(within(row).getByText('100')).toBeTruthy();
    expect(screen.getByTestId('prompt-credit-warning').textContent).toContain('crédito gratuito');
    expect((await screen.findByTestId('prompt-usage')).textContent).toContain('7 respostas');
    // The key is shown only masked.
    expect(document.body.textContent).not.toContain('sk-');
  });

  it("says 'Informe o setor' without a queue and saves nothing", async () => {
    const { requests } = signedIn(admin(), respond);
    await openPage('/prompts');
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar Prompt' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Nome'), { target: { value: 'Novo' } });
    fireEvent.change(within(dialog).getByLabelText('Prompt'), { target: { value: 'Atenda.' } });
    fireEvent.change(within(dialog).getByLabelText('API Key'), { target: { value: 'sk-1234' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await within(dialog).findByText('Informe o setor')).toBeTruthy();
    expect(writes(requests)).toEqual([]);
  });

  it("sends a plan without useOpenAi away with secondary §8's message", async () => {
    localStorage.setItem('token', 'stored');
    const user = admin();
    installFakePlatform((req) => {
      if (req.path === '/auth/refresh_token') return { status: 200, data: { token: 't', user } };
      if (req.path.startsWith('/companies/listPlan'))
        return { status: 200, data: { plan: { ...allPlanFlags, useOpenAi: false } } };
      if (req.path === '/version') return { status: 200, data: { version: '1.0.0' } };
      return respond(req);
    });
    await renderApp('/prompts');
    expect(
      await screen.findByText(
        'Esta empresa não possui permissão para acessar essa página! Estamos lhe redirecionando.',
        {},
        { timeout: 10_000 },
      ),
    ).toBeTruthy();
    expect(screen.queryByTestId('prompt-3')).toBeNull();
  });
});
