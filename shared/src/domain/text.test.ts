import { describe, expect, it } from 'vitest';
import {
  previewText,
  quickMessageLabel,
  shortenContactName,
  truncate,
  wantsQuickMessages,
} from './text.js';

describe('truncations (core §9)', () => {
  it.each([
    ['Maria Aparecida', 599, 'Maria Apar...'],
    ['Maria Aparecida', 600, 'Maria Aparecida'],
    ['Maria Apar', 320, 'Maria Apar'],
    ['Maria Apare', 320, 'Maria Apar...'],
  ])('shortenContactName(%s, %i) → %s', (name, width, expected) => {
    expect(shortenContactName(name, width)).toBe(expected);
  });

  it.each([
    ['a'.repeat(20), true, 'a'.repeat(20)],
    ['a'.repeat(21), true, 'a'.repeat(20) + '...'],
    ['a'.repeat(21), false, 'a'.repeat(21)],
  ])('previewText(%s, %s)', (body, compact, expected) => {
    expect(previewText(body, compact)).toBe(expected);
  });

  it('quick-message labels are cut at 35 characters', () => {
    expect(quickMessageLabel('x'.repeat(35))).toBe('x'.repeat(35));
    expect(quickMessageLabel('x'.repeat(36))).toBe('x'.repeat(35) + '...');
  });

  it('truncate keeps short text', () => {
    expect(truncate('', 3)).toBe('');
  });

  it.each([
    ['/', false],
    ['/o', true],
    ['o/', false],
    ['', false],
  ])('wantsQuickMessages(%s) → %s', (input, expected) => {
    expect(wantsQuickMessages(input)).toBe(expected);
  });
});
