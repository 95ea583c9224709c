import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FormattedText } from './FormattedText';

const html = (text: string, max?: number) =>
  render(<FormattedText text={text} max={max} />).container.innerHTML;

describe('FormattedText (WhatsApp formatting as elements)', () => {
  it.each([
    ['*negrito*', '<strong>negrito</strong>'],
    ['_itálico_', '<em>itálico</em>'],
    ['~riscado~', '<s>riscado</s>'],
    ['a *b _c_* d', 'a <strong>b <em>c</em></strong> d'],
    ['2*3*4', '2*3*4'],
  ])('%j', (text, expected) => {
    expect(html(text)).toBe(expected);
  });

  it('renders monospace as code', () => {
    const { container } = render(<FormattedText text={'```x = 1```'} />);
    expect(container.querySelector('code')?.textContent).toBe('x = 1');
  });

  it('never interprets HTML in a message', () => {
    const { container } = render(<FormattedText text={'<img src=x onerror="alert(1)"> *oi*'} />);
    expect(container.querySelector('img')).toBeNull();
    expect(container.textContent).toBe('<img src=x onerror="alert(1)"> oi');
    expect(container.querySelector('strong')?.textContent).toBe('oi');
  });

  it('cuts the visible text for compact previews, keeping the formatting', () => {
    expect(html('*abcdefghij* klmnopqrstuvwxyz', 20)).toBe(
      '<strong>abcdefghij</strong> klmnopqrs...',
    );
  });
});
