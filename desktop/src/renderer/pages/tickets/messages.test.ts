import { describe, expect, it } from 'vitest';
import { makeMessage } from '../../../../test/fixtures';
import {
  ackState,
  fileNameOf,
  isSendable,
  mediaPathOf,
  mergeMessages,
  signBody,
  threadRows,
} from './messages';

const msg = (id: number, createdAt: string, ticketId = 1) =>
  makeMessage(id, { ticketId, createdAt });

describe('thread rows (core §2)', () => {
  it('adds a day separator when the day changes and ticket markers between tickets', () => {
    const rows = threadRows([
      msg(1, '2025-01-01T10:00:00'),
      msg(2, '2025-01-01T11:00:00'),
      msg(3, '2025-01-02T09:00:00'),
      msg(4, '2025-01-02T09:05:00', 2),
    ]);
    expect(rows.map((r) => r.kind)).toEqual([
      'day',
      'message',
      'message',
      'day',
      'message',
      'ticket-ended',
      'ticket-started',
      'message',
    ]);
  });

  it('merges pages by id in time order', () => {
    const page1 = [msg(3, '2025-01-01T12:00:00'), msg(4, '2025-01-01T13:00:00')];
    const older = [msg(1, '2025-01-01T10:00:00'), msg(2, '2025-01-01T11:00:00')];
    const edited = { ...msg(4, '2025-01-01T13:00:00'), body: 'edited' };
    const merged = mergeMessages(mergeMessages(page1, older), [edited]);
    expect(merged.map((m) => m.id)).toEqual([1, 2, 3, 4]);
    expect(merged[3]?.body).toBe('edited');
  });
});

describe('message input rules (core §2, §5)', () => {
  it('signs with the name in bold', () => {
    expect(signBody('Olá', 'Ana', true)).toBe('*Ana:*\nOlá');
    expect(signBody('Olá', 'Ana', false)).toBe('Olá');
  });

  it.each([
    ['', false],
    ['   \n ', false],
    ['oi', true],
  ])('isSendable(%j) → %s', (body, expected) => {
    expect(isSendable(body)).toBe(expected);
  });

  it.each([
    [0, 'pending'],
    [1, 'sent'],
    [2, 'sent'],
    [3, 'delivered'],
    [4, 'read'],
    [5, 'read'],
  ] as const)('ack %i → %s', (ack, expected) => {
    expect(ackState(ack)).toBe(expected);
  });
});

describe('file bubbles show the file name', () => {
  it.each([
    [{ fileName: 'contrato.pdf', body: 'veja', mediaUrl: '/media/x/ab12.pdf' }, 'contrato.pdf'],
    [{ body: 'nota fiscal.pdf', mediaUrl: '/media/x/ab12.pdf' }, 'nota fiscal.pdf'],
    [{ body: 'segue o arquivo', mediaUrl: 'http://h/media/1/ab12.pdf?sig=1' }, 'ab12.pdf'],
    [{ body: '', mediaUrl: '/public/rel%C3%A1torio.xlsx' }, 'relátorio.xlsx'],
  ])('%j → %s', (message, name) => {
    expect(fileNameOf(message)).toBe(name);
  });
});

describe('media links (issue 13 item 6)', () => {
  it.each([
    ['https://atende.example.com/media/abcDEF_-123.png?c=2&exp=1&sig=x', '/media/abcDEF_-123.png'],
    ['http://127.0.0.1:8080/media/a.pdf?c=2&exp=1&sig=x', '/media/a.pdf'],
    ['/media/a.ogg?c=2&exp=1&sig=x', '/media/a.ogg'],
    ['/media/a.ogg', '/media/a.ogg'],
    ['https://cdn.example.com/other/a.png', 'https://cdn.example.com/other/a.png'],
    [null, null],
  ])('%s is loaded by %s', (url, path) => {
    expect(mediaPathOf(url)).toBe(path);
  });

  it('names a file by the link without its signature', () => {
    expect(fileNameOf({ body: '', mediaUrl: '/media/boleto.pdf?c=2&exp=1&sig=x' })).toBe(
      'boleto.pdf',
    );
  });
});
