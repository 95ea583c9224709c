import { create } from 'zustand';

export type TicketsTab = 'open' | 'closed' | 'search';
export type OpenTab = 'open' | 'pending';

interface TicketsUiState {
  tab: TicketsTab;
  openTab: OpenTab;
  showAll: boolean;
  /** Narrow screens: which bottom tab is shown. */
  mobileTab: 'ticket' | 'tickets';
  setTab(tab: TicketsTab): void;
  setOpenTab(tab: OpenTab): void;
  setShowAll(showAll: boolean): void;
  setMobileTab(tab: 'ticket' | 'tickets'): void;
}

/** The tickets page's UI state, kept while the user visits other pages. */
export const useTicketsUi = create<TicketsUiState>()((set) => ({
  tab: 'open',
  openTab: 'open',
  showAll: false,
  mobileTab: 'tickets',
  setTab: (tab) => set({ tab }),
  setOpenTab: (openTab) => set({ openTab }),
  setShowAll: (showAll) => set({ showAll }),
  setMobileTab: (mobileTab) => set({ mobileTab }),
}));
