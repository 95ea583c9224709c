import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { lazyDialog } from './lazyDialog';

interface Props {
  open: boolean;
  label: string;
}

/** A stand-in dialog module: counts its loads and shows whether it is open. */
function dialogModule() {
  const loads = { count: 0 };
  const load = async () => {
    loads.count += 1;
    return function Dialog({ open, label }: Props) {
      return <div data-testid="dialog">{`${label}:${open ? 'open' : 'closed'}`}</div>;
    };
  };
  return { loads, Lazy: lazyDialog(load, (p: Props) => p.open) };
}

describe('lazyDialog (a form dialog loads on its first opening)', () => {
  it('loads nothing while it has never been open', () => {
    const { loads, Lazy } = dialogModule();
    const { container } = render(<Lazy open={false} label="a" />);
    expect(container.innerHTML).toBe('');
    expect(loads.count).toBe(0);
  });

  it('loads on the first opening, then stays mounted through closing and reopening', async () => {
    const { loads, Lazy } = dialogModule();
    const { rerender } = render(<Lazy open={false} label="a" />);
    rerender(<Lazy open label="a" />);
    expect((await screen.findByTestId('dialog')).textContent).toBe('a:open');
    rerender(<Lazy open={false} label="b" />);
    expect(screen.getByTestId('dialog').textContent).toBe('b:closed');
    rerender(<Lazy open label="c" />);
    expect(screen.getByTestId('dialog').textContent).toBe('c:open');
    expect(loads.count).toBe(1);
  });

  it('opens at once when first rendered open', async () => {
    const { Lazy } = dialogModule();
    render(<Lazy open label="x" />);
    expect((await screen.findByTestId('dialog')).textContent).toBe('x:open');
  });
});
