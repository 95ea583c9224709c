import { fireEvent, screen, within } from '@testing-library/react';
import { addLocalDays } from '@atende/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { admin, agent, openPage, signedIn } from '../../../../test/pages';
import type { HttpRequest } from '../../platform';

const now = Date.now();
const view = (overrides = {}) => ({
  company: {
    id: 4,
    name: 'Empresa',
    email: 'cobranca@empresa.com',
    dueDate: addLocalDays(now, 2),
    recurrence: 'MENSAL',
  },
  plan: { id: 1, name: 'Plano Ouro', value: '149.90', users: 5, connections: 2, queues: 3 },
  daysLeft: 2,
  trial: true,
  invoice: {
    id: 7,
    companyId: 4,
    detail: 'Plano Ouro',
    status: 'open',
    value: '149.90',
    dueDate: addLocalDays(now, 2),
    paidAt: null,
    createdAt: new Date(now).toISOString(),
  },
  ...overrides,
});

const respondWith = (answer: unknown) => (req: HttpRequest) =>
  req.path === '/subscription' && req.method === 'GET' ? { status: 200, data: answer } : undefined;

// The page's chunk, loaded once before the first test opens it (a cold import is slow).
beforeAll(async () => {
  await import('./SubscriptionPage');
}, 60_000);

describe("'Assinatura' page", () => {
  it('shows the trial days left, the billing e-mail, and the subscribe button opens the checkout', async () => {
    signedIn(admin(), respondWith(view()));
    await openPage('/subscription');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Assinatura');
    expect(await screen.findByText('Período de teste')).toBeTruthy();
    expect(screen.getByTestId('subscription-days').textContent).toMatch(/^Restam 2 dias · /);
    expect(screen.getByTestId('subscription-email').textContent).toBe('cobranca@empresa.com');
    fireEvent.click(screen.getByRole('button', { name: 'Assine agora!' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('checkout-plan').textContent).toContain('Usuários: 5');
  }, 60_000);

  it('after a payment it reads the license period; without an open invoice the button is off', async () => {
    signedIn(admin(), respondWith(view({ trial: false, daysLeft: 1, invoice: null })));
    await openPage('/subscription');
    expect(await screen.findByText('Período de licença')).toBeTruthy();
    expect(screen.getByTestId('subscription-days').textContent).toMatch(/^Resta 1 dia · /);
    expect(
      (screen.getByRole('button', { name: 'Assine agora!' }) as HTMLButtonElement).disabled,
    ).toBe(true);
    expect(screen.getByText('Nenhuma fatura em aberto no momento.')).toBeTruthy();
  });

  it('an agent reads it but is told to ask the admin', async () => {
    signedIn(agent(), respondWith(view()));
    await openPage('/subscription');
    expect(await screen.findByTestId('subscription-email')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Assine agora!' })).toBeNull();
    expect(
      screen.getByText('Fale com o administrador da empresa para renovar a assinatura.'),
    ).toBeTruthy();
  });

  it("the top bar's due-date warning links to /subscription", async () => {
    signedIn(
      admin({
        company: {
          id: 4,
          name: 'Empresa',
          dueDate: addLocalDays(now, 2),
          planId: 1,
          settings: [],
        },
      }),
      respondWith(view()),
    );
    await openPage('/subscription');
    const warning = screen.getByRole('alert');
    expect(warning.textContent).toBe('Sua assinatura vence em 2 dia(s)');
    expect(warning.closest('a')?.getAttribute('href')).toBe('/subscription');
  });
});
