import { describe, expect, it } from 'vitest';
import {
  collectReferences,
  idSchema,
  isoDay,
  lineSchema,
  queryInt,
  ref,
  sequenceSchema,
  textSchema,
} from './common.js';
import { jsonIdList, keysetCursor } from './tickets.js';

describe('idSchema: one canonical form of an id (issue 19 item 3)', () => {
  it.each([
    ['1', 1],
    ['42', 42],
    ['2147483647', 2_147_483_647],
    [7, 7],
  ])('accepts %j as %d', (input, id) => {
    expect(idSchema.parse(input)).toBe(id);
  });

  it.each([
    ' 1',
    '1 ',
    '%201',
    '0x1',
    '1e0',
    '-1',
    '0',
    '01',
    '1.0',
    '+1',
    '2147483648',
    '99999999999',
    '',
    '１',
    '1_000',
    0,
    -1,
    1.5,
    2_147_483_648,
    Number.NaN,
    null,
    true,
    [1],
  ])('refuses %j', (input) => {
    expect(idSchema.safeParse(input).success).toBe(false);
  });
});

describe('jsonIdList: a JSON list of canonical ids in a query (`tags=[1,2]`)', () => {
  it.each([
    ['[]', []],
    ['[1,2]', [1, 2]],
    ['[ 3 , "4" ]', [3, 4]],
    ['[2147483647]', [2_147_483_647]],
  ])('accepts %j as %j', (input, ids) => {
    expect(jsonIdList.parse(input)).toEqual(ids);
  });

  it.each([
    '[01]',
    '[1.0]',
    '[1e0]',
    '[0]',
    '[-1]',
    '[2147483648]',
    '["01"]',
    '[" 1"]',
    '["1]',
    '[1"]',
    '[1,]',
    '[1\u00a02]',
    '[1\u00a0]',
    '1',
    '{"0":1}',
    '[[1]]',
    `[${Array.from({ length: 501 }, (_, i) => i + 1).join(',')}]`,
  ])('refuses %j (400, never an exception)', (input) => {
    expect(jsonIdList.safeParse(input).success).toBe(false);
  });
});

describe('queryInt: counts in a query in canonical decimal', () => {
  const page = queryInt(1, 100_000);
  it.each([
    ['1', 1],
    ['100000', 100_000],
    [7, 7],
  ])('accepts %j as %d', (input, n) => {
    expect(page.parse(input)).toBe(n);
  });
  it.each(['0', '01', ' 1', '1 ', '1e2', '0x2', '1.0', '-1', '+1', '', '100001', 1.5, 0, null])(
    'refuses %j',
    (input) => {
      expect(page.safeParse(input).success).toBe(false);
    },
  );
});

describe('request strings refuse NUL and control characters', () => {
  it.each([
    ['text', textSchema(100), 'linha 1\nlinha 2\r\n\tfim', true],
    ['text', textSchema(100), 'a\u0000b', false],
    ['text', textSchema(100), 'a\u0007b', false],
    ['text', textSchema(100), 'a\u001bb', false],
    ['text', textSchema(100), 'a\u007fb', false],
    ['text', textSchema(100), 'a\u0085b', false],
    ['text', textSchema(100), 'olá 😀 ção', true],
    ['line', lineSchema(100), 'Maria da Silva', true],
    ['line', lineSchema(100), 'Maria\nSilva', false],
    ['line', lineSchema(100), 'Maria\tSilva', false],
    ['line', lineSchema(100), 'Maria\u0000', false],
  ])('%s %j → %s', (_kind, schema, value, ok) => {
    expect(schema.safeParse(value).success).toBe(ok);
  });
});

describe('isoDay: a real calendar day or 400', () => {
  it.each([
    ['2024-02-29', true],
    ['2024-01-01T10:00:00Z', true],
    ['2024-01-01T10:00:00.000-03:00', true],
    ['2023-02-29', false],
    ['2024-13-01', false],
    ['2024-00-10', false],
    ['0000-01-01', false],
    ['2024-1-1', false],
    ['2024-01-01junk', false],
    ['yesterday', false],
    ['', false],
  ])('%j → %s', (value, ok) => {
    expect(isoDay.safeParse(value).success).toBe(ok);
  });
});

describe('keysetCursor: only what the server hands out', () => {
  const encode = (s: string) => Buffer.from(s).toString('base64url');
  it.each([
    [encode('2024-05-01T10:00:00.000Z|12'), true],
    [encode('2024-05-01 10:00:00.123456+00|12'), true],
    [encode('2024-05-01 10:00:00+05:30|12'), true],
    [encode('2024-05-01 24:00:00+00|12'), false],
    [encode('2024-05-01 10:60:00+00|12'), false],
    [encode('2024-05-01 10:00:00+99|12'), false],
    [encode('2024-05-01 10:00:00.1234567+00|12'), false],
    [encode("2024-05-01 10:00:00+00'; DROP TABLE tickets|12"), false],
    [encode('2024-05-01T10:00:00.000Z|0'), false],
    [encode('2024-05-01T10:00:00.000Z|99999999999'), false],
    [encode('1|12'), false],
    [encode('0000-01-01T00:00:00.000Z|1'), false],
    [encode('2024-02-30T00:00:00.000Z|1'), false],
    [encode('2024-05-01T10:00:00.000Z|1|2'), false],
    ['!!!', false],
    ['', false],
    ['a', false],
  ])('%j → %s', (value, ok) => {
    expect(keysetCursor.safeParse(value).success).toBe(ok);
  });
});

describe('ref(): the ids a parse meets', () => {
  it('collects only inside a collector, in order', () => {
    const schema = ref('whatsapp');
    expect(schema.parse('3')).toBe(3);
    const { result, references } = collectReferences(() => schema.safeParse(5));
    expect(result.success).toBe(true);
    expect(references).toEqual([{ kind: 'whatsapp', id: 5 }]);
  });
});

describe('sequenceSchema (a change-feed number in a query)', () => {
  it.each([
    ['0', 0],
    ['42', 42],
    [String(Number.MAX_SAFE_INTEGER), Number.MAX_SAFE_INTEGER],
  ])('accepts %s', (raw, value) => {
    expect(sequenceSchema.parse(raw)).toBe(value);
  });
  it.each(['-1', '01', '1e3', '0x10', '9007199254740992', '12345678901234567'])(
    'refuses %s',
    (raw) => {
      expect(sequenceSchema.safeParse(raw).success).toBe(false);
    },
  );
});
