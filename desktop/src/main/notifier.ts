import type { NotificationPlan } from './core/notification-policy.js';

/** The part of Electron's Notification class used here. */
export interface ElectronNotificationLike {
  isSupported(): boolean;
  create(options: { title: string; body: string; silent: boolean }): {
    on(event: 'click', listener: () => void): void;
    show(): void;
    close(): void;
  };
}

/** The part of node-notifier used here (libnotify, Windows toasts, macOS notification centre). */
export interface NodeNotifierLike {
  notify(
    options: { title: string; message: string; wait: boolean },
    callback?: (error: Error | null, response: string) => void,
  ): unknown;
}

export interface Notifier {
  show(plan: Pick<NotificationPlan, 'title' | 'body' | 'tag'> & { ticketId?: number }): boolean;
}

/**
 * Electron's notifications where the platform supports them, node-notifier otherwise. One
 * notification per tag is on screen at a time; a click brings the window up on the ticket.
 * The sound is the renderer's (at the agent's chosen volume), so these are silent.
 */
export function createNotifier(options: {
  electron: ElectronNotificationLike;
  fallback: NodeNotifierLike | null;
  onClick: (ticketId: number | undefined, tag: string) => void;
}): Notifier {
  const showing = new Map<string, { close(): void }>();
  return {
    show(plan) {
      if (options.electron.isSupported()) {
        showing.get(plan.tag)?.close();
        const notification = options.electron.create({
          title: plan.title,
          body: plan.body,
          silent: true,
        });
        notification.on('click', () => options.onClick(plan.ticketId, plan.tag));
        showing.set(plan.tag, notification);
        notification.show();
        return true;
      }
      if (!options.fallback) return false;
      options.fallback.notify(
        { title: plan.title, message: plan.body, wait: true },
        (error, response) => {
          if (!error && /activate|click/i.test(response ?? ''))
            options.onClick(plan.ticketId, plan.tag);
        },
      );
      return true;
    },
  };
}

/** The tray tooltip and badge text for an unread count. */
export function trayLabel(unread: number): { tooltip: string; badge: string } {
  if (unread <= 0) return { tooltip: 'Atende', badge: '' };
  return { tooltip: `Atende (${unread})`, badge: unread > 99 ? '99+' : String(unread) };
}
