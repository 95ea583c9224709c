import { describe, expect, it } from 'vitest';
import { campaignEditability } from '@atende/shared';
import { canonicalNumber, classifyReply, nextGap, renderMessage } from './campaigns.service.js';

describe('classifyReply', () => {
  it.each([
    ['PARE', 'stop'],
    ['pare', 'stop'],
    ['Pare.', 'stop'],
    [' sair ', 'stop'],
    ['STOP', 'stop'],
    ['Cancelar!', 'stop'],
    ['sim', 'yes'],
    ['Sim!', 'yes'],
    ['1', 'yes'],
    ['ok', 'yes'],
    ['não', 'no'],
    ['Nao', 'no'],
    ['2', 'no'],
    ['quero cancelar meu pedido', 'other'],
    ['pare de me mandar isso agora', 'other'],
    ['talvez', 'other'],
    ['', 'other'],
  ])('%j is %s', (text, kind) => expect(classifyReply(text)).toBe(kind));
});

describe('canonicalNumber', () => {
  it.each([
    ['5511987654321', '5511987654321'],
    ['+55 (11) 98765-4321', '5511987654321'],
    // The old 8-digit mobile form gets its 9th digit: one phone, one number.
    ['551187654321', '5511987654321'],
    // A landline (starts 2-5) stays as it is.
    ['551132654321', '551132654321'],
    ['14155550100', '14155550100'],
    ['1234567', undefined],
    ['abc', undefined],
  ])('%s → %s', (raw, canonical) => expect(canonicalNumber(raw)).toBe(canonical));
});

describe('renderMessage', () => {
  const r = { name: 'Ana', number: '5511987654321', email: 'ana@x.test' };
  it.each([
    ['Olá {nome}', 'Olá Ana'],
    ['{numero} / {email}', '5511987654321 / ana@x.test'],
    ['Cupom {cupom} na {loja}', 'Cupom BF10 na Loja Centro'],
    ['{desconhecida} fica', '{desconhecida} fica'],
    // A custom variable never replaces a built-in one.
    ['{nome}', 'Ana'],
  ])('%s → %s', (template, text) =>
    expect(
      renderMessage(template, r, [
        { key: 'cupom', value: 'BF10' },
        { key: 'loja', value: 'Loja Centro' },
        { key: 'nome', value: 'Outro' },
      ]),
    ).toBe(text),
  );
});

describe('nextGap (seconds in the settings, milliseconds out)', () => {
  const s = { messageInterval: 20, longerIntervalAfter: 20, greaterInterval: 60 };
  it.each([
    ['the lowest draw is half the interval', s, 1, 0, 10_000, false],
    ['the highest draw is the interval', s, 1, 1, 20_000, false],
    ['after 20 sends, the greater interval', s, 20, 0.5, 60_000, true],
    ['19 sends: still the short one', s, 19, 0.5, 15_000, false],
    ['longerIntervalAfter 0: never', { ...s, longerIntervalAfter: 0 }, 500, 0, 10_000, false],
    [
      'a greater interval shorter than the draw keeps the draw',
      { ...s, greaterInterval: 5 },
      20,
      1,
      20_000,
      true,
    ],
    [
      'interval 0: the campaign adds nothing (the governor keeps its floor)',
      { ...s, messageInterval: 0 },
      1,
      0.7,
      0,
      false,
    ],
  ])('%s', (_name, settings, since, random, gapMs, long) =>
    expect(nextGap(settings, since, () => random)).toEqual({ gapMs, long }),
  );
});

describe('campaignEditability (secondary §4)', () => {
  const now = new Date('2026-11-23T12:00:00Z');
  const at = (min: number) => new Date(now.getTime() + min * 60_000).toISOString();
  it.each([
    ['INATIVA', null, 'all'],
    ['PROGRAMADA', at(61), 'all'],
    ['PROGRAMADA', at(60), 'none'],
    ['PROGRAMADA', at(5), 'none'],
    ['EM_ANDAMENTO', at(-5), 'none'],
    ['CANCELADA', at(-5), 'messages'],
    ['FINALIZADA', at(-5), 'none'],
  ])('%s at %s → %s', (status, scheduledAt, editable) =>
    expect(campaignEditability({ status, scheduledAt }, now)).toBe(editable),
  );
});
