import Box from '@mui/material/Box';
import { useCallback, useLayoutEffect, useRef, useState, type ReactNode } from 'react';

/** Lists load their next page within 100 px of the bottom (core §9). */
export const END_REACHED_THRESHOLD_PX = 100;

export interface VirtualListProps<T> {
  items: readonly T[];
  /** Every row has this height; it is what makes windowing cheap and exact. */
  itemHeight: number;
  renderItem(item: T, index: number): ReactNode;
  getKey(item: T, index: number): string | number;
  /** Rows rendered above and below the visible window. */
  overscan?: number;
  /** Height used before the container can be measured (tests, first paint). */
  fallbackHeight?: number;
  onEndReached?(): void;
  ariaLabel?: string;
  empty?: ReactNode;
}

/** The rows to render for a scroll position: the visible ones plus `overscan` each side. */
export function visibleRange(
  count: number,
  itemHeight: number,
  scrollTop: number,
  viewportHeight: number,
  overscan: number,
): { start: number; end: number } {
  const first = Math.floor(Math.max(0, scrollTop) / itemHeight);
  const last = Math.ceil((Math.max(0, scrollTop) + viewportHeight) / itemHeight);
  return { start: Math.max(0, first - overscan), end: Math.min(count, last + overscan) };
}

/** A small windowing list: only the rows in view are in the DOM. */
export function VirtualList<T>({
  items,
  itemHeight,
  renderItem,
  getKey,
  overscan = 4,
  fallbackHeight = 600,
  onEndReached,
  ariaLabel,
  empty,
}: VirtualListProps<T>) {
  const ref = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(fallbackHeight);

  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setHeight(element.clientHeight || fallbackHeight);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [fallbackHeight]);

  const onScroll = useCallback(
    (event: React.UIEvent<HTMLDivElement>) => {
      const element = event.currentTarget;
      setScrollTop(element.scrollTop);
      const viewport = element.clientHeight || height;
      if (items.length * itemHeight - element.scrollTop - viewport < END_REACHED_THRESHOLD_PX) {
        onEndReached?.();
      }
    },
    [height, itemHeight, items.length, onEndReached],
  );

  if (items.length === 0 && empty) return <>{empty}</>;
  const { start, end } = visibleRange(items.length, itemHeight, scrollTop, height, overscan);
  const rows: ReactNode[] = [];
  for (let index = start; index < end; index += 1) {
    const item = items[index] as T;
    rows.push(
      <Box
        key={getKey(item, index)}
        role="listitem"
        aria-setsize={items.length}
        aria-posinset={index + 1}
        sx={{
          position: 'absolute',
          top: index * itemHeight,
          left: 0,
          right: 0,
          height: itemHeight,
        }}
      >
        {renderItem(item, index)}
      </Box>,
    );
  }
  return (
    <Box
      ref={ref}
      onScroll={onScroll}
      role="list"
      aria-label={ariaLabel}
      sx={{ height: '100%', overflowY: 'auto', position: 'relative' }}
      data-testid="virtual-list"
    >
      <Box sx={{ height: items.length * itemHeight, position: 'relative' }}>{rows}</Box>
    </Box>
  );
}
