import { describe, expect, it } from 'vitest';
import { csvCell, toCsv } from './rules';

describe('CSV export (formula cells neutralised)', () => {
  it.each([
    ['Maria', '"Maria"'],
    ['=HYPERLINK("http://x")', `"'=HYPERLINK(""http://x"")"`],
    ['+5511', `"'+5511"`],
    ['-2+3', `"'-2+3"`],
    ['@SUM(A1)', `"'@SUM(A1)"`],
    ['\tcmd', `"'\tcmd"`],
    ['a "quote"', '"a ""quote"""'],
    [null, '""'],
    [3, '"3"'],
  ])('%j → %s', (value, cell) => expect(csvCell(value)).toBe(cell));

  it('joins rows with CRLF', () => {
    expect(
      toCsv([
        ['a', 'b'],
        ['=1', null],
      ]),
    ).toBe(`"a","b"\r\n"'=1",""`);
  });
});
