import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// Testing Library cleans up automatically only when the runner exposes globals.
afterEach(() => {
  cleanup();
  localStorage.clear();
});

// jsdom lacks matchMedia; MUI's useMediaQuery and the theme's system default read it.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      addListener: () => undefined,
      removeListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
}
