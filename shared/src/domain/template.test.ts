import { describe, expect, it } from 'vitest';
import { renderTemplate, timeOfDayGreeting } from './template.js';

const at = (h: number, m = 0) => new Date(2025, 0, 6, h, m);

describe('timeOfDayGreeting', () => {
  it.each([
    [4, 'Boa noite'],
    [5, 'Bom dia'],
    [11, 'Bom dia'],
    [12, 'Boa tarde'],
    [17, 'Boa tarde'],
    [18, 'Boa noite'],
    [23, 'Boa noite'],
  ])('at %i h says %s', (hour, greeting) => {
    expect(timeOfDayGreeting(at(hour))).toBe(greeting);
  });
});

describe('renderTemplate', () => {
  it('fills name, first name, protocol, greeting, hour and date', () => {
    const text = '{{ms}}, {{firstName}}! {{name}} — protocolo {{protocol}} às {{hour}} de {{date}}';
    expect(renderTemplate(text, { name: 'Maria da Silva', protocol: 42, now: at(9, 5) })).toBe(
      'Bom dia, Maria! Maria da Silva — protocolo 42 às 09:05 de 06/01/2025',
    );
  });

  it('accepts spaces inside the braces and leaves unknown variables alone', () => {
    expect(
      renderTemplate('{{ name }} {{desconhecida}}', { name: 'Ana', protocol: 1, now: at(20) }),
    ).toBe('Ana {{desconhecida}}');
  });
});
