// BR Code vectors. The expected strings were assembled field by field by hand (id, length,
// value) and their CRCs computed apart from this code (Python's binascii.crc_hqx with initial
// value 0xFFFF, which is CRC16/CCITT-FALSE). pix-utils (a maintained npm parser) reads every
// generated code back as an oracle.
import { hasError, parsePix, PixElementType } from 'pix-utils';
import { describe, expect, it } from 'vitest';
import { brCode, crc16, crcHolds, emvFields, foldAscii, pixKeyKind } from './pix.js';

describe('crc16 (CCITT-FALSE)', () => {
  it.each([
    ['123456789', '29B1'], // the catalogue check value of CRC-16/CCITT-FALSE
    ['', 'FFFF'], // nothing processed: the initial value
    ['A', 'B915'],
    // The Banco Central's BR Code manual example, up to and including "6304".
    [
      '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***6304',
      '1D3D',
    ],
  ])('crc16(%j) = %s', (text, crc) => {
    expect(crc16(text)).toBe(crc);
  });
});

const STATIC_VECTOR =
  '000201' +
  '010212' +
  '2639' +
  '0014br.gov.bcb.pix' +
  '0117pix@atende.com.br' +
  '52040000' +
  '5303986' +
  '540599.90' +
  '5802BR' +
  '5922Atende Tecnologia Ltda' +
  '6009Sao Paulo' +
  '6211' +
  '0507ATD0001' +
  '6304C628';

const DYNAMIC_VECTOR =
  '000201' +
  '010212' +
  '2662' +
  '0014br.gov.bcb.pix' +
  '2540pix.example.com/qr/v2/9d36b84fc70b478fb9' +
  '52040000' +
  '5303986' +
  '5406150.00' +
  '5802BR' +
  '5910JOAO ACUCA' +
  '6008BRASILIA' +
  '62070503***' +
  '63040F2D';

describe('brCode', () => {
  it('a static code with key, amount and txid matches the hand-built vector', () => {
    const code = brCode({
      key: 'pix@atende.com.br',
      amount: '99.90',
      merchantName: 'Atende Tecnologia Ltda',
      merchantCity: 'São Paulo',
      txid: 'ATD0001',
    });
    expect(code).toBe(STATIC_VECTOR);
    expect(crcHolds(code)).toBe(true);
  });

  it('a dynamic code (location, no txid) matches the hand-built vector', () => {
    const code = brCode({
      location: 'pix.example.com/qr/v2/9d36b84fc70b478fb9',
      amount: '150.00',
      merchantName: 'JOÃO AÇUCA',
      merchantCity: 'BRASÍLIA',
    });
    expect(code).toBe(DYNAMIC_VECTOR);
  });

  it('a changed amount breaks the CRC', () => {
    expect(crcHolds(DYNAMIC_VECTOR)).toBe(true);
    expect(crcHolds(DYNAMIC_VECTOR.replace('150.00', '151.00'))).toBe(false);
  });

  it('name and city are folded to ASCII and cut to 25 and 15', () => {
    const code = brCode({
      key: '12345678901',
      amount: '1.00',
      merchantName: 'Conceição & Irmãos Comércio de Serviços Ltda',
      merchantCity: 'São José dos Campos',
      txid: 'X1',
    });
    const fields = emvFields(code);
    expect(fields.get('59')).toBe('Conceicao & Irmaos Comerc');
    expect(fields.get('59')).toHaveLength(25);
    expect(fields.get('60')).toBe('Sao Jose dos Ca');
    expect(fields.get('60')).toHaveLength(15);
  });

  it('the fixed fields: 00=01, 52=0000, 53=986, 58=BR; no amount → no field 54', () => {
    const fields = emvFields(
      brCode({ key: '+5511999998888', merchantName: 'A', merchantCity: 'B', oneTime: false }),
    );
    expect(fields.get('00')).toBe('01');
    expect(fields.get('01')).toBe('11');
    expect(fields.get('52')).toBe('0000');
    expect(fields.get('53')).toBe('986');
    expect(fields.get('58')).toBe('BR');
    expect(fields.has('54')).toBe(false);
    expect(fields.get('62')).toBe('0503***');
  });

  it.each([
    [{ key: 'not a key', amount: '1.00', merchantName: 'A', merchantCity: 'B' }],
    [{ key: '12345678901', amount: '1', merchantName: 'A', merchantCity: 'B' }],
    [{ key: '12345678901', amount: '0.00', merchantName: 'A', merchantCity: 'B' }],
    [{ key: '12345678901', amount: '1.00', merchantName: 'A', merchantCity: 'B', txid: 'a-b' }],
    [{ key: '12345678901', merchantName: 'A', merchantCity: 'B', txid: 'x'.repeat(26) }],
    [{ key: '12345678901', merchantName: '日本', merchantCity: 'B' }],
    [{ merchantName: 'A', merchantCity: 'B' }],
    [{ key: '12345678901', location: 'h.example/x', merchantName: 'A', merchantCity: 'B' }],
    [{ location: 'https://h.example/x', merchantName: 'A', merchantCity: 'B' }],
  ])('refuses %j', (input) => {
    expect(() => brCode(input)).toThrow();
  });
});

describe('pixKeyKind', () => {
  it.each([
    ['12345678901', 'cpf'],
    ['12345678000199', 'cnpj'],
    ['+5511999998888', 'phone'],
    ['pix@atende.com.br', 'email'],
    ['123e4567-e12b-12d1-a456-426655440000', 'evp'],
    ['1234567890', null],
    ['5511999998888', null],
    ['not a key', null],
  ])('%s → %s', (key, kind) => {
    expect(pixKeyKind(key)).toBe(kind);
  });
});

describe('foldAscii', () => {
  it.each([
    ['São Paulo', 15, 'Sao Paulo'],
    ['  Açaí   e  Cia ', 25, 'Acai e Cia'],
    ['Ñandú', 25, 'Nandu'],
    ['a'.repeat(30), 25, 'a'.repeat(25)],
  ])('%j → %j', (text, max, folded) => {
    expect(foldAscii(text, max)).toBe(folded);
  });
});

describe('oracle: pix-utils reads what we write', () => {
  it('static: key, amount, name, city, txid, one-time', () => {
    const parsed = parsePix(STATIC_VECTOR);
    if (hasError(parsed)) throw new Error(parsed.message);
    expect(parsed.type).toBe(PixElementType.STATIC);
    expect(parsed).toMatchObject({
      pixKey: 'pix@atende.com.br',
      transactionAmount: 99.9,
      merchantName: 'Atende Tecnologia Ltda',
      merchantCity: 'Sao Paulo',
      txid: 'ATD0001',
      transactionCurrency: '986',
      countryCode: 'BR',
      merchantCategoryCode: '0000',
    });
  });

  it('dynamic: the location URL', () => {
    const parsed = parsePix(DYNAMIC_VECTOR);
    if (hasError(parsed)) throw new Error(parsed.message);
    expect(parsed.type).toBe(PixElementType.DYNAMIC);
    expect(parsed).toMatchObject({ url: 'pix.example.com/qr/v2/9d36b84fc70b478fb9' });
  });

  it.each([
    ['12345678901', '0.01', 'ABC'],
    ['12345678000199', '1234567890.99', 'Z'.repeat(25)],
    ['+5511999998888', '49.90', 'a1B2c3'],
    ['123e4567-e12b-12d1-a456-426655440000', '100.00', 'INV000123'],
  ])('round trip key %s amount %s txid %s', (key, amount, txid) => {
    const parsed = parsePix(
      brCode({ key, amount, txid, merchantName: 'Empresa Ação', merchantCity: 'Goiânia' }),
    );
    if (hasError(parsed)) throw new Error(parsed.message);
    expect(parsed).toMatchObject({
      pixKey: key,
      transactionAmount: Number(amount),
      txid,
      merchantName: 'Empresa Acao',
      merchantCity: 'Goiania',
    });
  });

  it('a code with a broken CRC is refused by the oracle too', () => {
    const broken = STATIC_VECTOR.replace('99.90', '09.90');
    expect(crcHolds(broken)).toBe(false);
    const parsed = parsePix(broken);
    expect(hasError(parsed)).toBe(true);
  });
});
