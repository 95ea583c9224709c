import { describe, expect, it } from 'vitest';
import { markdownToWhatsApp, richTextToWhatsApp } from './typebot-markup.js';

describe('markdownToWhatsApp', () => {
  it.each([
    ['**Olá**, tudo bem?', '*Olá*, tudo bem?'],
    ['__negrito__ e _itálico_ e *também itálico*', '*negrito* e _itálico_ e _também itálico_'],
    ['~~riscado~~', '~riscado~'],
    ['***ambos***', '*_ambos_*'],
    ['**a** **b**', '*a* *b*'],
    [
      'Veja [nosso site](https://loja.example.com/a_b)',
      'Veja nosso site (https://loja.example.com/a_b)',
    ],
    ['[https://x.example](https://x.example)', 'https://x.example'],
    ['<https://x.example/p>', 'https://x.example/p'],
    ['snake_case_name stays', 'snake_case_name stays'],
    ['2 \\* 3 = 6 and \\_x\\_', '2 * 3 = 6 and _x_'],
    ['# Título', '*Título*'],
    ['* um\n* dois', '- um\n- dois'],
    ['linha  \noutra\n\n\n\nfim', 'linha\noutra\n\nfim'],
    ['Preço: **R$ 10,00**\nPrazo: _3 dias_', 'Preço: *R$ 10,00*\nPrazo: _3 dias_'],
  ])('%j → %j', (input, expected) => {
    expect(markdownToWhatsApp(input)).toBe(expected);
  });
});

describe('richTextToWhatsApp', () => {
  it('marks, links, paragraphs and lists', () => {
    const rich = [
      {
        type: 'p',
        children: [
          { text: 'Olá ' },
          { text: 'Maria', bold: true },
          { text: ', ' },
          { text: 'bem-vinda ', italic: true },
        ],
      },
      {
        type: 'p',
        children: [
          { text: 'Acesse ' },
          { type: 'a', url: 'https://loja.example.com', children: [{ text: 'a loja' }] },
        ],
      },
      { type: 'p', children: [{ text: 'antigo', strikethrough: true }, { text: ' novo' }] },
      {
        type: 'ol',
        children: [
          { type: 'li', children: [{ text: 'um' }] },
          { type: 'li', children: [{ text: 'dois', bold: true }] },
        ],
      },
      { type: 'variable', children: [{ type: 'p', children: [{ text: 'valor' }] }] },
    ];
    expect(richTextToWhatsApp(rich)).toBe(
      'Olá *Maria*, _bem-vinda_ \nAcesse a loja (https://loja.example.com)\n~antigo~ novo\n1. um\n2. *dois*\nvalor',
    );
  });

  it('empty paragraphs keep a blank line; junk nodes are ignored', () => {
    expect(
      richTextToWhatsApp([
        { type: 'p', children: [{ text: 'a' }] },
        { type: 'p', children: [{ text: '' }] },
        null,
        { type: 'p', children: [{ text: 'b' }] },
      ]),
    ).toBe('a\n\nb');
  });
});
