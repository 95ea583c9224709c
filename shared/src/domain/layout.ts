/** App-shell sizes and breakpoints (core §2, §9). */
export const DRAWER_WIDTH = 240;
export const CONTACT_DRAWER_WIDTH = 320;
/** Above this width the drawer starts open and the tickets page shows list and ticket side by side. */
export const WIDE_BREAKPOINT = 1200;
/** Under this width the drawer is a temporary overlay and names are shortened. */
export const NARROW_BREAKPOINT = 600;

export type DrawerVariant = 'permanent' | 'temporary';

export interface ShellLayout {
  drawerVariant: DrawerVariant;
  drawerOpenByDefault: boolean;
}

export function shellLayout(viewportWidth: number): ShellLayout {
  return {
    drawerVariant: viewportWidth < NARROW_BREAKPOINT ? 'temporary' : 'permanent',
    drawerOpenByDefault: viewportWidth > WIDE_BREAKPOINT,
  };
}

/** The tickets page uses bottom tabs ('Ticket', 'Atendimentos') on narrow screens. */
export const ticketsLayout = (viewportWidth: number): 'wide' | 'narrow' =>
  viewportWidth < NARROW_BREAKPOINT ? 'narrow' : 'wide';
