import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { VirtualList, visibleRange } from './VirtualList';

const items = Array.from({ length: 5000 }, (_, i) => ({ id: i + 1, name: `Ticket ${i + 1}` }));

describe('VirtualList', () => {
  it('renders a window of a 5,000-item list, not every item', () => {
    render(
      <VirtualList
        items={items}
        itemHeight={80}
        fallbackHeight={800}
        overscan={4}
        getKey={(t) => t.id}
        renderItem={(t) => <span>{t.name}</span>}
      />,
    );
    const rendered = screen.getAllByRole('listitem');
    expect(rendered).toHaveLength(14); // 10 visible + 4 overscan below
    expect(screen.getByText('Ticket 1')).toBeTruthy();
    expect(screen.queryByText('Ticket 5000')).toBeNull();
  });

  it('scrolling to the end renders the last items and asks for the next page', () => {
    const onEndReached = vi.fn();
    render(
      <VirtualList
        items={items}
        itemHeight={80}
        fallbackHeight={800}
        getKey={(t) => t.id}
        renderItem={(t) => <span>{t.name}</span>}
        onEndReached={onEndReached}
      />,
    );
    const list = screen.getByTestId('virtual-list');
    fireEvent.scroll(list, { target: { scrollTop: 5000 * 80 - 800 } });
    expect(screen.getByText('Ticket 5000')).toBeTruthy();
    expect(screen.queryByText('Ticket 1')).toBeNull();
    expect(screen.getAllByRole('listitem').length).toBeLessThan(20);
    expect(onEndReached).toHaveBeenCalled();
  });

  it('asks for the next page only within 100 px of the bottom', () => {
    const onEndReached = vi.fn();
    render(
      <VirtualList
        items={items.slice(0, 40)}
        itemHeight={80}
        fallbackHeight={800}
        getKey={(t) => t.id}
        renderItem={(t) => <span>{t.name}</span>}
        onEndReached={onEndReached}
      />,
    );
    const list = screen.getByTestId('virtual-list');
    fireEvent.scroll(list, { target: { scrollTop: 40 * 80 - 800 - 100 } });
    expect(onEndReached).not.toHaveBeenCalled();
    fireEvent.scroll(list, { target: { scrollTop: 40 * 80 - 800 - 99 } });
    expect(onEndReached).toHaveBeenCalledOnce();
  });

  it.each([
    [0, 600, 0, { start: 0, end: 8 }],
    [800, 600, 2, { start: 8, end: 20 }],
    [0, 600, 2, { start: 0, end: 10 }],
  ])('visibleRange(scrollTop %i, height %i, overscan %i)', (top, height, overscan, expected) => {
    expect(visibleRange(100, 80, top, height, overscan)).toEqual(expected);
  });
});
