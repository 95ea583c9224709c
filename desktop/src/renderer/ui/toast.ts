import { create } from 'zustand';

/** Toasts close after 3 s (core §8 and secondary §2 give 2 s and 3 s; we keep the global 3 s). */
export const TOAST_DURATION_MS = 3_000;

export type ToastKind = 'error' | 'success' | 'info' | 'warning';
export interface Toast {
  id: number;
  kind: ToastKind;
  text: string;
}

interface ToastState {
  queue: Toast[];
  push(kind: ToastKind, text: string): void;
  dismiss(id: number): void;
}

let nextId = 1;

export const useToasts = create<ToastState>()((set) => ({
  queue: [],
  push: (kind, text) => set((s) => ({ queue: [...s.queue, { id: nextId++, kind, text }] })),
  dismiss: (id) => set((s) => ({ queue: s.queue.filter((t) => t.id !== id) })),
}));

export const toast = {
  error: (text: string) => useToasts.getState().push('error', text),
  success: (text: string) => useToasts.getState().push('success', text),
  info: (text: string) => useToasts.getState().push('info', text),
  warning: (text: string) => useToasts.getState().push('warning', text),
};
