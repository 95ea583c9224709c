import { describe, expect, it } from 'vitest';
import { buildHistory, messageText, type HistoryMessage } from './openai-history.js';

const at = (minute: number) => new Date(Date.UTC(2026, 10, 23, 12, minute)).toISOString();
const msg = (
  id: number,
  minute: number,
  fromMe: boolean,
  body: string,
  extra: Partial<HistoryMessage> = {},
) =>
  ({
    id,
    fromMe,
    body,
    mediaType: 'chat',
    createdAt: at(minute),
    ...extra,
  }) satisfies HistoryMessage;

// A ticket's messages as the database might hand them over: newest first, with noise.
const ticket: HistoryMessage[] = [
  msg(12, 11, false, 'E o preço?'), // the current message, also in the list
  msg(11, 10, false, '', { mediaType: 'reaction' }),
  msg(10, 9, true, 'Nota: cliente VIP', { internal: true }),
  msg(9, 8, true, 'Temos azul e verde.'),
  msg(8, 7, false, '', { mediaType: 'audio', transcription: ' Quais cores vocês têm? ' }),
  msg(7, 6, false, 'mensagem apagada', { isDeleted: true }),
  msg(6, 5, false, 'foto do produto', { mediaType: 'image' }),
  msg(5, 4, true, 'Olá! Em que posso ajudar?'),
  msg(4, 3, false, 'Oi'),
  msg(3, 2, false, 'Bom dia'),
  msg(2, 1, true, 'Mensagem de boas-vindas'),
  msg(1, 0, false, 'primeira'),
];
const current = ticket[0]!;

describe('buildHistory (golden)', () => {
  it('keeps the last maxMessages in chronological order, the current once, no notes', () => {
    expect(
      buildHistory({
        systemPrompt: 'Você é a Ana, da loja.',
        messages: ticket,
        current,
        maxMessages: 5,
      }),
    ).toEqual([
      { role: 'system', content: 'Você é a Ana, da loja.' },
      { role: 'assistant', content: 'Olá! Em que posso ajudar?' },
      { role: 'user', content: '[image] foto do produto' },
      { role: 'user', content: 'Quais cores vocês têm?' },
      { role: 'assistant', content: 'Temos azul e verde.' },
      { role: 'user', content: 'E o preço?' },
    ]);
  });

  it('the default window of 10 reaches back to the oldest words', () => {
    const turns = buildHistory({
      systemPrompt: 'S',
      messages: [...ticket].reverse(),
      current,
      maxMessages: 10,
    });
    expect(turns.map((t) => t.content)).toEqual([
      'S',
      'primeira',
      'Mensagem de boas-vindas',
      'Bom dia',
      'Oi',
      'Olá! Em que posso ajudar?',
      '[image] foto do produto',
      'Quais cores vocês têm?',
      'Temos azul e verde.',
      'E o preço?',
    ]);
  });

  it('the current message comes once even when absent from the list, and last', () => {
    const fresh = msg(13, 12, false, 'Alô?');
    const turns = buildHistory({
      systemPrompt: 'S',
      messages: ticket,
      current: fresh,
      maxMessages: 3,
    });
    expect(turns).toEqual([
      { role: 'system', content: 'S' },
      { role: 'assistant', content: 'Temos azul e verde.' },
      { role: 'user', content: 'E o preço?' },
      { role: 'user', content: 'Alô?' },
    ]);
  });

  it('maxMessages 1 is the current message alone; a later message is never context', () => {
    const later = msg(14, 30, true, 'resposta futura');
    expect(
      buildHistory({ systemPrompt: 'S', messages: [...ticket, later], current, maxMessages: 1 }),
    ).toEqual([
      { role: 'system', content: 'S' },
      { role: 'user', content: 'E o preço?' },
    ]);
  });

  it('same-instant messages keep their id order', () => {
    const a = msg(21, 40, false, 'a');
    const b = msg(22, 40, false, 'b');
    const c = msg(23, 41, false, 'c');
    const turns = buildHistory({
      systemPrompt: 'S',
      messages: [b, c, a],
      current: c,
      maxMessages: 10,
    });
    expect(turns.map((t) => t.content)).toEqual(['S', 'a', 'b', 'c']);
  });
});

describe('messageText', () => {
  it.each([
    [{ mediaType: 'audio', body: '', transcription: null }, '[audio]'],
    [{ mediaType: 'application', body: 'nota.pdf' }, '[document] nota.pdf'],
    [{ mediaType: 'sticker', body: '' }, '[sticker]'],
    [{ mediaType: 'chat', body: '   ' }, null],
    [{ mediaType: 'call_log', body: 'Chamada perdida' }, null],
    [{ mediaType: 'ciphertext', body: '' }, null],
  ])('%o → %s', (partial, expected) => {
    expect(
      messageText({ id: 1, fromMe: false, createdAt: at(0), ...partial } as HistoryMessage),
    ).toBe(expected);
  });
});
