import { describe, expect, it } from 'vitest';
import { AppError } from '../../http/errors.js';
import { canonicalNumber } from './numbers.js';
import { headerKey, prepareRows } from './sheet.js';

describe('canonicalNumber', () => {
  it.each([
    ['(11) 8765-4321', '5511987654321'], // 8-digit mobile gets its 9th digit
    ['11987654321', '5511987654321'],
    ['+55 11 98765-4321', '5511987654321'],
    ['5511987654321', '5511987654321'],
    ['551187654321', '5511987654321'],
    ['0 11 98765 4321', '5511987654321'], // trunk prefix
    ['0055 11 98765-4321', '5511987654321'], // international prefix
    ['(11) 3456-7890', '551134567890'], // landline keeps 8 digits
    ['21 99999-0000', '5521999990000'],
    ['+1 415 555 2671', '14155552671'],
    ['+44 7911 123456', '447911123456'],
    ['98765-4321', null], // no area code
    ['55 11 12345-6789', null], // 9 digits that are not a mobile
    ['abc', null],
    ['', null],
  ])('%s → %s', (raw, canonical) => {
    expect(canonicalNumber(raw)).toBe(canonical);
  });
});

describe('headerKey', () => {
  it.each([
    ['Número', 'numero'],
    ['NÚMERO ', 'numero'],
    ['E-mail', 'email'],
    ['Telefone/Celular', 'telefonecelular'],
    ['Nome', 'nome'],
  ])('%s → %s', (header, key) => expect(headerKey(header)).toBe(key));
});

const code = (run: () => unknown) => {
  try {
    run();
  } catch (err) {
    return err instanceof AppError ? err.code : String(err);
  }
  return undefined;
};

describe('prepareRows', () => {
  it('reads synonyms, folds 9th-digit variants, reports bad rows with their sheet row', () => {
    const sheet = prepareRows([
      ['', '', ''],
      ['NOME', 'Telefone', 'E-MAIL'],
      ['José Araújo', '(11) 8765-4321', 'JOSE@EXEMPLO.COM'],
      ['José A.', '11 98765-4321', ''], // same person: 9th digit
      ['', '', ''],
      ['Sem número', '', ''],
      ['Número ruim', '123', ''],
      ['E-mail ruim', '21999990000', 'nao-e-email'],
      ['X', '21988887777', ''], // 1-character name: the number is the name
      ['A'.repeat(80), '(31) 3333-4444', ''],
    ]);
    expect(sheet.total).toBe(7);
    expect(sheet.rows).toEqual([
      [3, 'José Araújo', '5511987654321', 'jose@exemplo.com'],
      [9, '5521988887777', '5521988887777', ''],
      [10, 'A'.repeat(50), '553133334444', ''],
    ]);
    expect(sheet.problems).toEqual([
      { line: 4, name: 'José A.', number: '11 98765-4321', reason: 'duplicate_in_file', sameAs: 3 },
      { line: 6, name: 'Sem número', number: '', reason: 'number_missing' },
      { line: 7, name: 'Número ruim', number: '123', reason: 'number_invalid' },
      { line: 8, name: 'E-mail ruim', number: '21999990000', reason: 'email_invalid' },
    ]);
  });

  it.each([
    [[['nome', 'email']], 'ERR_IMPORT_HEADER'],
    [[], 'ERR_IMPORT_HEADER'],
    [[['nome', '__proto__', 'numero']], 'ERR_IMPORT_UNSAFE'],
    [[['constructor', 'numero']], 'ERR_IMPORT_UNSAFE'],
    [[[' Prototype ', 'numero']], 'ERR_IMPORT_UNSAFE'],
  ])('refuses the header %j with %s', (table, error) => {
    expect(code(() => prepareRows(table))).toBe(error);
  });

  it('never builds objects from header names', () => {
    prepareRows([
      ['numero', 'polluted'],
      ['5511987654321', 'yes'],
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
