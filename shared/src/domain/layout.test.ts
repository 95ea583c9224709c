import { describe, expect, it } from 'vitest';
import { DRAWER_WIDTH, CONTACT_DRAWER_WIDTH, shellLayout, ticketsLayout } from './layout.js';

describe('shellLayout (core §2: 1200 / 600)', () => {
  it.each([
    [1920, 'permanent', true],
    [1201, 'permanent', true],
    [1200, 'permanent', false],
    [800, 'permanent', false],
    [600, 'permanent', false],
    [599, 'temporary', false],
    [320, 'temporary', false],
  ] as const)('%i px → %s, open %s', (width, drawerVariant, drawerOpenByDefault) => {
    expect(shellLayout(width)).toEqual({ drawerVariant, drawerOpenByDefault });
  });

  it.each([
    [599, 'narrow'],
    [600, 'wide'],
  ] as const)('tickets page at %i px is %s', (width, expected) => {
    expect(ticketsLayout(width)).toBe(expected);
  });

  it('drawers are 240 and 320 px', () => {
    expect(DRAWER_WIDTH).toBe(240);
    expect(CONTACT_DRAWER_WIDTH).toBe(320);
  });
});
