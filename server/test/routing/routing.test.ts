import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setClock } from '../../src/modules/routing/clock.js';
import { startTestServer, type TestServer } from '../harness.js';
import { customer, scene, ticketOf, type Scene } from './scenario.js';

let server: TestServer;
let phones = 0;
const phone = () => `55119${String(Date.now()).slice(-6)}${String(++phones).padStart(2, '0')}`;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());
afterEach(() => setClock(undefined));

const MENU = ['*[ 1 ]* - Vendas', '*[ 2 ]* - Suporte'].join('\n');

describe('queue choice', () => {
  let s: Scene;
  beforeAll(async () => {
    s = await scene(server, {
      queues: [
        { name: 'Vendas', greetingMessage: 'Bem-vindo às vendas, {{firstName}}!', orderQueue: 1 },
        { name: 'Suporte', greetingMessage: 'Suporte técnico.', orderQueue: 2 },
      ],
      connection: { greetingMessage: '{{ms}}! Escolha uma fila:', maxUseBotQueues: 3 },
    });
  });

  it('greets with the numbered menu; the answer picks the queue and sends its greeting', async () => {
    const p = phone();
    const c = customer(s, p, 'Joana Prado');
    await c.say('oi');
    const [menu] = await c.replies();
    expect(menu!.body).toMatch(/^(Bom dia|Boa tarde|Boa noite)! Escolha uma fila:\n\n/);
    expect(menu!.body).toContain(MENU);
    await c.say('2');
    const [greeting] = await c.replies();
    expect(greeting!.body).toBe('Suporte técnico.');
    const ticket = await ticketOf(server, s, p);
    expect(ticket).toMatchObject({ queueId: s.queues.Suporte, status: 'pending', userId: null });
    // The bot's messages are stored like any other, without a user, marked by their clientId.
    const stored = await server.app.ds.query(
      `SELECT body, "fromMe", "userId", "clientId" FROM messages WHERE "ticketId" = $1 ORDER BY id`,
      [ticket.id],
    );
    expect(stored.map((m: any) => m.body)).toEqual(['oi', menu!.body, '2', 'Suporte técnico.']);
    expect(stored[1]).toMatchObject({ fromMe: true, userId: null });
    expect(stored[1].clientId).toMatch(/^bot:/);
  });

  it('repeats the menu on an invalid answer and stops after maxUseBotQueues menus', async () => {
    const p = phone();
    const c = customer(s, p);
    await c.say('olá');
    await c.replies();
    await c.say('9');
    expect((await c.replies())[0]!.body).toContain(MENU);
    await c.say('banana');
    expect((await c.replies())[0]!.body).toContain(MENU);
    // Three menus shown (maxUseBotQueues 3): the bot stops; the ticket waits without a queue.
    await c.say('de novo?');
    expect(await c.silence()).toEqual([]);
    await c.say('1');
    expect(await c.silence()).toEqual([]);
    expect(await ticketOf(server, s, p)).toMatchObject({ queueId: null, chatbot: false });
  });
});

describe('option tree', () => {
  let s: Scene;
  beforeAll(async () => {
    s = await scene(server, {
      queues: [{ name: 'Financeiro', greetingMessage: 'Financeiro, {{name}}.' }],
      connection: { maxUseBotQueues: 2 },
    });
    const post = (body: object) =>
      server.request('POST', '/queue-options', { token: s.admin.token, body });
    const q = s.queues.Financeiro;
    const boletos = await post({
      queueId: q,
      option: '1',
      title: 'Boletos',
      message: 'Sobre boletos:',
    });
    await post({
      queueId: q,
      option: '2',
      title: 'Falar com atendente',
      message: 'Aguarde um atendente.',
    });
    await post({
      queueId: q,
      parentId: boletos.body.id,
      option: '1',
      title: 'Segunda via',
      message: 'Enviamos a segunda via.',
    });
    await post({
      queueId: q,
      parentId: boletos.body.id,
      option: '2',
      title: 'Prazo',
      message: 'O prazo é de 3 dias.',
    });
  });

  it('walks down with numbers, back with 0, to the start with #, and ends at a leaf', async () => {
    const p = phone();
    const c = customer(s, p, 'Rui Costa');
    await c.say('bom dia');
    // One queue: the ticket goes straight to it, greeted, with its first level.
    const [top] = await c.replies();
    expect(top!.body).toBe(
      'Financeiro, Rui Costa.\n\n*[ 1 ]* - Boletos\n*[ 2 ]* - Falar com atendente',
    );
    expect((await ticketOf(server, s, p)).queueId).toBe(s.queues.Financeiro);
    await c.say('1');
    const [boletos] = await c.replies();
    expect(boletos!.body).toBe(
      'Sobre boletos:\n\n*[ 1 ]* - Segunda via\n*[ 2 ]* - Prazo\n\n*[ 0 ]* - Voltar\n*[ # ]* - Menu inicial',
    );
    await c.say('0');
    expect((await c.replies())[0]!.body).toBe(top!.body);
    await c.say('1');
    await c.replies();
    await c.say('#');
    expect((await c.replies())[0]!.body).toBe(top!.body);
    await c.say('1');
    await c.replies();
    await c.say('2');
    expect((await c.replies())[0]!.body).toBe('O prazo é de 3 dias.');
    // A leaf ends the bot: the ticket waits in the queue and further messages get no answer.
    await c.say('obrigado');
    expect(await c.silence()).toEqual([]);
    expect(await ticketOf(server, s, p)).toMatchObject({ chatbot: false, status: 'pending' });
  });

  it('repeats the options on an invalid answer, within the bot limit', async () => {
    const p = phone();
    const c = customer(s, p);
    await c.say('oi');
    const [top] = await c.replies();
    await c.say('7');
    expect((await c.replies())[0]!.body).toBe(top!.body);
    await c.say('8');
    expect((await c.replies())[0]!.body).toBe(top!.body);
    // maxUseBotQueues 2 reached: the next invalid answer stops the bot.
    await c.say('9');
    expect(await c.silence()).toEqual([]);
  });
});

describe('time limit of the bot', () => {
  it('stops the bot after timeUseBotQueues minutes', async () => {
    const s = await scene(server, {
      queues: [{ name: 'Fila A' }, { name: 'Fila B' }],
      connection: { greetingMessage: 'Menu', timeUseBotQueues: 10 },
    });
    const start = Date.now();
    setClock(() => new Date(start));
    const p = phone();
    const c = customer(s, p);
    await c.say('oi');
    await c.replies();
    setClock(() => new Date(start + 11 * 60_000));
    await c.say('1');
    expect(await c.silence()).toEqual([]);
    expect((await ticketOf(server, s, p)).queueId).toBeNull();
  });
});

describe('out of hours', () => {
  // 2025-01-06 is a Monday: 20:00 is after the default 08:00-18:00, 10:00 within it.
  const evening = new Date(2025, 0, 6, 20, 0);
  const morning = new Date(2025, 0, 6, 10, 0);

  it('scheduleType company: the connection answers outside the company hours', async () => {
    const s = await scene(server, {
      queues: [{ name: 'Geral', greetingMessage: 'Olá!' }],
      connection: { outOfHoursMessage: 'Estamos fechados, {{name}}.' },
      settings: { scheduleType: 'company' },
    });
    const schedules = [
      { weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '08:00', endTime: '18:00' },
    ];
    const saved = await server.request('PUT', `/companies/${s.companyId}/schedules`, {
      token: s.admin.token,
      body: { schedules },
    });
    expect(saved.status).toBe(200);
    setClock(() => evening);
    const c = customer(s, phone(), 'Ana');
    await c.say('oi');
    expect((await c.replies())[0]!.body).toBe('Estamos fechados, Ana.');
    setClock(() => morning);
    await c.say('oi de novo');
    expect((await c.replies())[0]!.body).toBe('Olá!');
  });

  it('scheduleType queue: the chosen queue answers with its own message outside its hours', async () => {
    const s = await scene(server, {
      queues: [
        { name: 'Loja', greetingMessage: 'Loja aberta', outOfHoursMessage: 'A loja abre às 8h.' },
        { name: 'SAC', greetingMessage: 'SAC' },
      ],
      connection: { greetingMessage: 'Escolha', outOfHoursMessage: 'não deve aparecer' },
      settings: { scheduleType: 'queue' },
    });
    setClock(() => evening);
    const p = phone();
    const c = customer(s, p);
    await c.say('oi');
    expect((await c.replies())[0]!.body).toContain('*[ 1 ]* - Loja');
    await c.say('1');
    expect((await c.replies())[0]!.body).toBe('A loja abre às 8h.');
    expect((await ticketOf(server, s, p)).queueId).toBe(s.queues.Loja);
  });

  it('scheduleType disabled: never out of hours', async () => {
    const s = await scene(server, {
      queues: [{ name: 'Única', greetingMessage: 'Bem-vindo', outOfHoursMessage: 'fechado' }],
      connection: { outOfHoursMessage: 'fechado' },
      settings: { scheduleType: 'disabled' },
    });
    setClock(() => new Date(2025, 0, 12, 3, 0));
    const c = customer(s, phone());
    await c.say('oi');
    expect((await c.replies())[0]!.body).toBe('Bem-vindo');
  });
});

describe('configuration cache', () => {
  it('a change to a queue, the connection or an option tree is seen by the next message', async () => {
    const s = await scene(server, {
      queues: [
        { name: 'Vendas', greetingMessage: 'Vendas.', orderQueue: 1 },
        { name: 'Suporte', greetingMessage: 'Suporte.', orderQueue: 2 },
      ],
      connection: { greetingMessage: 'Escolha:', maxUseBotQueues: 0 },
    });
    const token = s.admin.token;
    const addOption = (option: string, title: string) =>
      server.request('POST', '/queue-options', {
        token,
        body: { queueId: s.queues.Vendas, option, title, message: title },
      });
    expect((await addOption('1', 'Preços')).status).toBe(201);
    const first = customer(s, phone());
    await first.say('oi');
    expect((await first.replies())[0]!.body).toBe(
      'Escolha:\n\n*[ 1 ]* - Vendas\n*[ 2 ]* - Suporte',
    );
    await first.say('1');
    expect((await first.replies())[0]!.body).toContain('*[ 1 ]* - Preços');
    // Everything above is now in this process's copy; each change below shows at once.
    const renamed = await server.request('PUT', `/queue/${s.queues.Suporte}`, {
      token,
      body: { name: 'Ajuda' },
    });
    expect(renamed.status).toBe(200);
    const second = customer(s, phone());
    await second.say('oi');
    expect((await second.replies())[0]!.body).toBe('Escolha:\n\n*[ 1 ]* - Vendas\n*[ 2 ]* - Ajuda');
    const greeting = await server.request('PUT', `/whatsapp/${s.whatsappId}`, {
      token,
      body: { greetingMessage: 'Olá! Escolha:' },
    });
    expect(greeting.status).toBe(200);
    await second.say('talvez');
    expect((await second.replies())[0]!.body).toMatch(/^Olá! Escolha:\n\n/);
    expect((await addOption('2', 'Prazos')).status).toBe(201);
    await second.say('1');
    const options = (await second.replies())[0]!.body;
    expect(options).toContain('*[ 1 ]* - Preços');
    expect(options).toContain('*[ 2 ]* - Prazos');
  });
});
