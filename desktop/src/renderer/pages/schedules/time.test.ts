import { describe, expect, it } from 'vitest';
import { defaultSendAt, displayDate, formatWall, parseDay, wallParts, wallString } from './time';

const SP = 'America/Sao_Paulo';

describe('schedule times (core §5: DD/MM/YYYY, one hour ahead, in the company zone)', () => {
  it.each([
    ['31/12/2030', '2030-12-31'],
    ['29/02/2028', '2028-02-29'],
    ['29/02/2027', null],
    ['31/04/2030', null],
    ['2030-12-31', null],
    ['1/1/2030', null],
    ['', null],
  ])('parseDay(%j) → %j', (text, day) => expect(parseDay(text)).toBe(day));

  it.each([
    ['10/03/2030', '09:30', '2030-03-10T09:30'],
    ['10/03/2030', '24:00', null],
    ['10/03/2030', '9:30', null],
    ['32/03/2030', '09:30', null],
  ])('wallString(%j, %j) → %j', (date, time, wall) => expect(wallString(date, time)).toBe(wall));

  it('shows an instant in the company zone, whatever the browser zone', () => {
    const at = '2030-03-10T12:00:00.000Z';
    expect(wallParts(at, SP)).toEqual({ date: '10/03/2030', time: '09:00' });
    expect(formatWall(at, 'Europe/Lisbon')).toBe('10/03/2030 12:00');
    const shown = displayDate(at, SP);
    expect([shown.getDate(), shown.getHours(), shown.getMinutes()]).toEqual([10, 9, 0]);
  });

  it('defaults to one hour ahead', () => {
    expect(defaultSendAt(Date.parse('2030-03-10T23:30:00Z'), SP)).toEqual({
      date: '10/03/2030',
      time: '21:30',
    });
  });
});
