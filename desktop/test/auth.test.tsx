import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { allPlanFlags, makeUser } from './fixtures';
import { installFakePlatform, renderApp } from './render';

const type = async (label: RegExp, value: string) =>
  fireEvent.change(await screen.findByLabelText(label), { target: { value } });

describe('route guard (core §2)', () => {
  it('sends an anonymous user from a private route to /login', async () => {
    installFakePlatform(() => undefined);
    await renderApp('/tickets');
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/login'));
    expect(await screen.findByRole('button', { name: 'Entrar' })).toBeTruthy();
  });

  it('refreshes a stored session on load and sends the user from /login onwards', async () => {
    localStorage.setItem('token', 'stored');
    const { requests } = installFakePlatform((req) => {
      if (req.path === '/auth/refresh_token') {
        return { status: 200, data: { token: 'fresh', user: makeUser() } };
      }
      if (req.path.startsWith('/companies/listPlan'))
        return { status: 200, data: { plan: allPlanFlags } };
      if (req.path === '/version') return { status: 200, data: { version: '1.2.3' } };
      return undefined;
    });
    await renderApp('/login');
    // A non-admin at / is sent on to /tickets (the shell chunk loads first).
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/tickets'), {
      timeout: 5000,
    });
    expect(requests[0]?.path).toBe('/auth/refresh_token');
    expect(localStorage.getItem('token')).toBe('fresh');
  });

  it('clears a stored session the server no longer accepts', async () => {
    localStorage.setItem('token', 'stale');
    localStorage.setItem('companyId', '4');
    installFakePlatform(() => ({ status: 401, data: { error: 'ERR_SESSION_EXPIRED' } }));
    await renderApp('/tickets');
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/login'));
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('companyId')).toBeNull();
  });

  it('keeps the stored session when the refresh fails without a refusal (server down)', async () => {
    localStorage.setItem('token', 'stored');
    localStorage.setItem('companyId', '4');
    const { requests } = installFakePlatform(() => ({ status: 503, data: undefined }));
    await renderApp('/tickets');
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/login'));
    expect(requests[0]?.path).toBe('/auth/refresh_token');
    // The other tabs of this browser, and the next reload, still hold the session.
    expect(localStorage.getItem('token')).toBe('stored');
    expect(localStorage.getItem('companyId')).toBe('4');
  });

  it('shows campaign routes only when cshow is defined', async () => {
    localStorage.setItem('token', 'stored');
    const respond = (req: { path: string }) =>
      req.path === '/auth/refresh_token'
        ? { status: 200, data: { token: 't', user: makeUser({ profile: 'admin' }) } }
        : undefined;
    installFakePlatform(respond);
    const first = await renderApp('/campaigns');
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/'));
    first.unmount();
    localStorage.setItem('token', 'stored');
    localStorage.setItem('cshow', 'null');
    installFakePlatform(respond);
    await renderApp('/campaigns');
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/campaigns'));
    expect(screen.getByTestId('location').textContent).toBe('/campaigns');
  });
});

describe('login (core §2, §8)', () => {
  it('shows the translated error of a wrong password', async () => {
    installFakePlatform(() => ({
      status: 401,
      data: { error: 'ERR_INVALID_CREDENTIALS', message: 'Invalid credentials' },
    }));
    await renderApp('/login');
    await type(/^Email/, 'ana@empresa.com');
    await type(/^Senha/, 'errada');
    fireEvent.click(await screen.findByRole('button', { name: 'Entrar' }));
    expect(
      await screen.findByText('Erro de autenticação. Por favor, tente novamente.'),
    ).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/login');
  });

  it('validates the e-mail before calling the server', async () => {
    const { requests } = installFakePlatform(() => undefined);
    await renderApp('/login');
    await type(/^Email/, 'not-an-email');
    fireEvent.click(await screen.findByRole('button', { name: 'Entrar' }));
    expect(await screen.findByText('Invalid email')).toBeTruthy();
    expect(requests).toHaveLength(0);
  });

  it('signs in and goes to /tickets', async () => {
    const { requests } = installFakePlatform((req) => {
      if (req.path === '/auth/login')
        return { status: 200, data: { token: 'tk', user: makeUser() } };
      if (req.path.startsWith('/companies/listPlan'))
        return { status: 200, data: { plan: allPlanFlags } };
      return undefined;
    });
    await renderApp('/login');
    await type(/^Email/, 'ana@empresa.com');
    await type(/^Senha/, 'Segredo1');
    fireEvent.click(await screen.findByRole('button', { name: 'Entrar' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/tickets'));
    expect(requests[0]).toMatchObject({
      method: 'POST',
      path: '/auth/login',
      body: { email: 'ana@empresa.com', password: 'Segredo1' },
      token: null,
    });
    expect(localStorage.getItem('token')).toBe('tk');
    expect(localStorage.getItem('companyId')).toBe('4');
  });

  it('refuses a login whose subscription has expired, with the date', async () => {
    const expired = makeUser();
    expired.company.dueDate = '2020-01-15T00:00:00.000Z';
    installFakePlatform((req) =>
      req.path === '/auth/login'
        ? { status: 200, data: { token: 'tk', user: expired } }
        : undefined,
    );
    await renderApp('/login');
    await type(/^Email/, 'ana@empresa.com');
    await type(/^Senha/, 'Segredo1');
    fireEvent.click(await screen.findByRole('button', { name: 'Entrar' }));
    expect(await screen.findByText(/Sua assinatura venceu em 15\/01\/2020/)).toBeTruthy();
    expect(localStorage.getItem('token')).toBeNull();
  });
});

describe('sign-up (admin §2, §5)', () => {
  const plans = [
    { id: 1, name: 'Básico', users: 2, connections: 1, queues: 2, value: 30 },
    { id: 2, name: 'Pro', users: 10, connections: 3, queues: 10, value: 90 },
  ];

  it('masks the phone (max 11 digits) and posts the digits, then goes to /login', async () => {
    const { requests } = installFakePlatform((req) => {
      if (req.path === '/plans/list') return { status: 200, data: plans };
      if (req.path === '/companies/cadastro') return { status: 200, data: { id: 1 } };
      return undefined;
    });
    await renderApp('/signup');
    await type(/^Nome da empresa/, 'Loja da Ana');
    await type(/^Telefone/, '119876543219999');
    expect((screen.getByLabelText(/^Telefone/) as HTMLInputElement).value).toBe('(11) 98765-4321');
    await type(/^Email/, 'ana@loja.com');
    await type(/^Senha/, 'segredo');
    fireEvent.mouseDown(screen.getByRole('combobox', { name: /Plano/ }));
    fireEvent.click(await screen.findByText(/^Pro - /));
    fireEvent.click(await screen.findByRole('button', { name: 'Cadastrar' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/login'));
    const post = requests.find((r) => r.path === '/companies/cadastro');
    expect(post?.body).toEqual({
      name: 'Loja da Ana',
      phone: '11987654321',
      email: 'ana@loja.com',
      password: 'segredo',
      planId: 2,
    });
    expect(post?.token).toBeNull();
  });

  it('shows the form rules', async () => {
    installFakePlatform((req) =>
      req.path === '/plans/list' ? { status: 200, data: plans } : undefined,
    );
    await renderApp('/signup');
    await type(/^Nome da empresa/, 'A');
    await type(/^Senha/, '1234');
    fireEvent.click(await screen.findByRole('button', { name: 'Cadastrar' }));
    expect(await screen.findAllByText('Too Short!')).toHaveLength(2);
  });
});

describe('forgot and reset password (secondary §2, §4, §5)', () => {
  it('goes through both steps and back to /login', async () => {
    const { requests } = installFakePlatform((req) => {
      if (req.path.startsWith('/forgetpassword/')) return { status: 200, data: {} };
      if (req.path.startsWith('/resetpasswords/')) return { status: 200, data: {} };
      return undefined;
    });
    await renderApp('/forgetpsw');
    await type(/^Email/, 'ana@empresa.com');
    fireEvent.click(await screen.findByRole('button', { name: 'Enviar Email' }));
    expect(await screen.findByText('Email enviado com sucesso!')).toBeTruthy();
    const token = await screen.findByLabelText(/^Código de verificação/, {}, { timeout: 2000 });
    fireEvent.change(token, { target: { value: '123456' } });
    await type(/^Nova senha/, 'fraca');
    await type(/^Confirme a senha/, 'outra');
    fireEvent.click(await screen.findByRole('button', { name: 'Redefinir Senha' }));
    expect(
      await screen.findByText(
        'Sua senha precisa ter no mínimo 8 caracteres, sendo uma letra maiúscula, uma minúscula e um número.',
      ),
    ).toBeTruthy();
    expect(screen.getByText('As senhas não correspondem')).toBeTruthy();
    await type(/^Nova senha/, 'Forte123');
    await type(/^Confirme a senha/, 'Forte123');
    fireEvent.click(await screen.findByRole('button', { name: 'Redefinir Senha' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/login'));
    expect(requests.map((r) => r.path)).toEqual([
      '/forgetpassword/ana%40empresa.com',
      '/resetpasswords/ana%40empresa.com/123456/Forte123',
    ]);
  });

  it("says 'Email não encontrado' on 404 and stays on step 1", async () => {
    installFakePlatform(() => ({ status: 404, data: { error: 'ERR_EMAIL_NOT_FOUND' } }));
    await renderApp('/forgetpsw');
    await type(/^Email/, 'nobody@empresa.com');
    fireEvent.click(await screen.findByRole('button', { name: 'Enviar Email' }));
    expect(await screen.findByText('Email não encontrado')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Enviar Email' })).toBeTruthy();
  });
});
