import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { logger } from '../src/logger.js';
import { createCompanyWithAdmin } from './fixtures.js';
import { startMailServer } from './mail-server.js';
import { startTestServer, type TestServer } from './harness.js';

let server: TestServer;
let mail: Awaited<ReturnType<typeof startMailServer>>;

beforeAll(async () => {
  mail = await startMailServer();
  server = await startTestServer({ SMTP_URL: mail.url });
});
afterAll(async () => {
  await server?.close();
  await mail?.close();
});

let caseNumber = 0;

const codeIn = (raw: string): string =>
  /(\d{6})\. Ele vale/.exec(raw.replace(/=\r?\n/g, ''))?.[1] ?? '';

describe('forgot and reset password', () => {
  it('mails a code; the code resets the password once; the old password stops working', async () => {
    const { email, password } = await createCompanyWithAdmin(server);
    const old = await server.login(email, password);
    const sent = await server.request('POST', `/forgetpassword/${encodeURIComponent(email)}`);
    expect(sent.status).toBe(200);
    const message = mail.inbox.find((m) => m.to.includes(email));
    expect(message).toBeDefined();
    const code = codeIn(message!.raw);
    expect(code).toMatch(/^\d{6}$/);

    const weak = await server.request('POST', `/resetpasswords/${email}/${code}/fraca`);
    expect(weak.status).toBe(400);
    expect(weak.body.message).toBe(
      'Sua senha precisa ter no mínimo 8 caracteres, sendo uma letra maiúscula, uma minúscula e um número.',
    );

    const wrong = await server.request('POST', `/resetpasswords/${email}/000000x/NovaSenha1`);
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('ERR_INVALID_RESET_TOKEN');

    const reset = await server.request('POST', `/resetpasswords/${email}/${code}/NovaSenha1`);
    expect(reset.status).toBe(200);
    expect(reset.body.message).toBe('Senha redefinida com sucesso.');

    expect((await server.request('GET', '/auth/me', { token: old.token })).status).toBe(403);
    const oldLogin = await server.request('POST', '/auth/login', { body: { email, password } });
    expect(oldLogin.body.error).toBe('ERR_INVALID_CREDENTIALS');
    expect((await server.login(email, 'NovaSenha1')).token).toBeTruthy();

    const again = await server.request('POST', `/resetpasswords/${email}/${code}/OutraSenha2`);
    expect(again.body.error).toBe('ERR_INVALID_RESET_TOKEN');
  });

  it('answers 404 for an unknown e-mail and sends nothing', async () => {
    const before = mail.inbox.length;
    const res = await server.request('POST', '/forgetpassword/ninguem@nada.test');
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('ERR_EMAIL_NOT_FOUND');
    expect(mail.inbox.length).toBe(before);
  });

  it.each([
    ['Abcdef1', false],
    ['abcdefg1', false],
    ['ABCDEFG1', false],
    ['Abcdefgh', false],
    ['Abcdefg1', true],
  ])('password %s meets the reset rule: %s', async (candidate, ok) => {
    const { email } = await createCompanyWithAdmin(server);
    await server.request('POST', `/forgetpassword/${email}`, {
      // One address per case: forgot-password allows only a few calls per address.
      headers: { 'x-forwarded-for': `10.9.0.${++caseNumber}` },
    });
    const code = codeIn(mail.inbox.filter((m) => m.to.includes(email)).at(-1)!.raw);
    const res = await server.request('POST', `/resetpasswords/${email}/${code}/${candidate}`);
    expect(res.status).toBe(ok ? 200 : 400);
  });

  it('limits forgot-password per e-mail (3 in the window), whatever the address', async () => {
    const { email } = await createCompanyWithAdmin(server);
    const before = mail.inbox.filter((m) => m.to.includes(email)).length;
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await server.request('POST', `/forgetpassword/${email}`, {
        headers: { 'x-forwarded-for': `10.11.0.${i + 1}` },
      });
      statuses.push(res.status);
      if (res.status === 429) expect(res.body.error).toBe('ERR_TOO_MANY_REQUESTS');
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(mail.inbox.filter((m) => m.to.includes(email)).length).toBe(before + 3);
  });

  it('limits forgot-password per address and logs e-mail enumeration', async () => {
    const warn = vi.spyOn(logger, 'warn');
    try {
      const prober = { 'x-forwarded-for': '10.12.0.1' };
      const answers = [];
      for (let i = 0; i < 7; i++) {
        answers.push(
          await server.request('POST', `/forgetpassword/probe${i}@enum.test`, { headers: prober }),
        );
      }
      // 'Email não encontrado' stays the answer (spec), until the address is cut off.
      expect(answers.map((a) => a.body.error)).toEqual([
        ...Array(5).fill('ERR_EMAIL_NOT_FOUND'),
        'ERR_TOO_MANY_REQUESTS',
        'ERR_TOO_MANY_REQUESTS',
      ]);
      const logged = warn.mock.calls.filter(
        ([fields]) => (fields as { ip?: string }).ip === '10.12.0.1',
      );
      expect(logged).toHaveLength(5);
      expect(logged.at(-1)![1]).toBe('password reset: e-mail enumeration suspected');
      expect(JSON.stringify(logged)).not.toContain('probe4@enum.test');
    } finally {
      warn.mockRestore();
    }
  });
});
