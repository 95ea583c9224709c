import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// Testing Library cleans up automatically only when the runner exposes globals.
afterEach(() => {
  cleanup();
  localStorage.clear();
});

// jsdom lacks matchMedia; MUI's useMediaQuery and the theme's system default read it. This one
// understands (max-width: N px) and (min-width: N px) against window.innerWidth.
const evaluate = (query: string): boolean => {
  const max = /max-width:\s*([\d.]+)px/.exec(query);
  const min = /min-width:\s*([\d.]+)px/.exec(query);
  if (max && window.innerWidth > Number(max[1])) return false;
  if (min && window.innerWidth < Number(min[1])) return false;
  return Boolean(max || min);
};
window.matchMedia = (query: string) =>
  ({
    matches: evaluate(query),
    media: query,
    onchange: null,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    addListener: () => undefined,
    removeListener: () => undefined,
    dispatchEvent: () => false,
  }) as MediaQueryList;

export const setViewportWidth = (width: number) => {
  Object.defineProperty(window, 'innerWidth', { configurable: true, value: width });
};
