import { describe, expect, it } from 'vitest';
import {
  formattedText,
  parseWhatsAppFormatting,
  truncateFormatted,
  type FormatNode,
} from './formatting.js';

const text = (t: string): FormatNode => ({ kind: 'text', text: t });
const bold = (...children: FormatNode[]): FormatNode => ({ kind: 'bold', children });
const italic = (...children: FormatNode[]): FormatNode => ({ kind: 'italic', children });
const strike = (...children: FormatNode[]): FormatNode => ({ kind: 'strike', children });
const mono = (t: string): FormatNode => ({ kind: 'mono', text: t });

describe('WhatsApp formatting', () => {
  it.each<[string, FormatNode[]]>([
    ['plain text', [text('plain text')]],
    ['', []],
    ['*bold*', [bold(text('bold'))]],
    ['_italic_', [italic(text('italic'))]],
    ['~strike~', [strike(text('strike'))]],
    ['```mono```', [mono('mono')]],
    ['a *b* c', [text('a '), bold(text('b')), text(' c')]],
    ['*Ana Admin:*\nOlá', [bold(text('Ana Admin:')), text('\nOlá')]],
    ['*_both_*', [bold(italic(text('both')))]],
    ['*bold _and italic_*', [bold(text('bold '), italic(text('and italic')))]],
    ['(*x*)', [text('('), bold(text('x')), text(')')]],
    ['*x*, y', [bold(text('x')), text(', y')]],
    // Markers glued to words, spaces inside, lines and lone markers stay as typed.
    ['2*3*4', [text('2*3*4')]],
    ['snake_case_name', [text('snake_case_name')]],
    ['* not bold*', [text('* not bold*')]],
    ['*not bold *', [text('*not bold *')]],
    ['*two\nlines*', [text('*two\nlines*')]],
    ['**', [text('**')]],
    ['*', [text('*')]],
    ['5 * 3 = 15', [text('5 * 3 = 15')]],
    ['```a *b*\nc```', [mono('a *b*\nc')]],
    ['``````', [text('``````')]],
    ['<b>x</b> *y*', [text('<b>x</b> '), bold(text('y'))]],
  ])('%j', (input, expected) => {
    expect(parseWhatsAppFormatting(input)).toEqual(expected);
  });

  it('gives back the visible text', () => {
    expect(formattedText(parseWhatsAppFormatting('*a* _b_ ~c~ ```d```'))).toBe('a b c d');
  });

  it.each<[string, number, string]>([
    ['*abc* def', 20, 'abc def'],
    ['*abcdef* ghi', 4, 'abcd...'],
    ['ab *cdef*', 4, 'ab c...'],
  ])('truncates %j to %i visible characters', (input, max, visible) => {
    const cut = truncateFormatted(parseWhatsAppFormatting(input), max);
    expect(formattedText(cut)).toBe(visible);
  });

  it('keeps the formatting of what stays after a cut', () => {
    expect(truncateFormatted(parseWhatsAppFormatting('*abcdef*'), 3)).toEqual([
      bold(text('abc')),
      text('...'),
    ]);
  });
});
