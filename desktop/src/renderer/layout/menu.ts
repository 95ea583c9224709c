import { can, type Profile } from '@atende/shared';
import type { PlanFlag, PlanFlags } from '../api/types';

export type MenuIcon =
  | 'dashboard'
  | 'tickets'
  | 'kanban'
  | 'quickMessages'
  | 'todolist'
  | 'contacts'
  | 'schedules'
  | 'tags'
  | 'chats'
  | 'helps'
  | 'campaigns'
  | 'announcements'
  | 'prompts'
  | 'queueIntegration'
  | 'connections'
  | 'files'
  | 'queues'
  | 'users'
  | 'messagesApi'
  | 'financeiro'
  | 'settings';

export interface MenuEntry {
  to: string;
  /** Key under `menu.` in the translations; also the icon name. */
  key: MenuIcon | 'campaignsList' | 'contactLists' | 'campaignsConfig';
  badge?: 'connections' | 'chats';
  children?: MenuEntry[];
}

export interface MenuViewer {
  profile: Profile;
  super: boolean;
}

export interface MenuSections {
  main: MenuEntry[];
  admin: MenuEntry[];
}

const entry = (to: string, key: MenuEntry['key'], extra: Partial<MenuEntry> = {}): MenuEntry => ({
  to,
  key,
  ...extra,
});

/**
 * The drawer items of core §2 for a user, their plan and the campaigns flag (cshow).
 * Plan-gated: kanban, schedules, internal chat, campaigns, prompts, integrations, API (the plan
 * flags of core §1; schedules and chats follow their flags too, as the plan carries them).
 * Until the plan is known, plan-gated items stay hidden.
 */
export function menuFor(
  viewer: MenuViewer,
  plan: PlanFlags | null,
  options: { campaigns: boolean },
): MenuSections {
  const has = (flag: PlanFlag) => plan?.[flag] === true;
  const admin = can(viewer.profile, 'drawer-admin-items:view');
  const main: MenuEntry[] = [];

  if (can(viewer.profile, 'dashboard:view')) main.push(entry('/', 'dashboard'));
  main.push(entry('/tickets', 'tickets'));
  if (has('useKanban')) main.push(entry('/kanban', 'kanban'));
  main.push(entry('/quick-messages', 'quickMessages'), entry('/todolist', 'todolist'));
  main.push(entry('/contacts', 'contacts'));
  if (has('useSchedules')) main.push(entry('/schedules', 'schedules'));
  main.push(entry('/tags', 'tags'));
  if (has('useInternalChat')) main.push(entry('/chats', 'chats', { badge: 'chats' }));
  main.push(entry('/helps', 'helps'));

  if (!admin) return { main, admin: [] };

  if (has('useCampaigns') && options.campaigns) {
    main.push(
      entry('/campaigns', 'campaigns', {
        children: [
          entry('/campaigns', 'campaignsList'),
          entry('/contact-lists', 'contactLists'),
          entry('/campaigns-config', 'campaignsConfig'),
        ],
      }),
    );
  }
  if (viewer.super) main.push(entry('/announcements', 'announcements'));

  const adminItems: MenuEntry[] = [];
  if (has('useOpenAi')) adminItems.push(entry('/prompts', 'prompts'));
  if (has('useIntegrations')) adminItems.push(entry('/queue-integration', 'queueIntegration'));
  adminItems.push(
    entry('/connections', 'connections', { badge: 'connections' }),
    entry('/files', 'files'),
    entry('/queues', 'queues'),
    entry('/users', 'users'),
  );
  if (has('useExternalApi')) adminItems.push(entry('/messages-api', 'messagesApi'));
  adminItems.push(entry('/financeiro', 'financeiro'), entry('/settings', 'settings'));
  return { main, admin: adminItems };
}

/** Connection statuses that earn the '!' badge (core §2). */
export const WARNING_CONNECTION_STATUSES = [
  'qrcode',
  'PAIRING',
  'DISCONNECTED',
  'TIMEOUT',
  'OPENING',
] as const;

export const connectionsNeedAttention = (connections: readonly { status: string }[]): boolean =>
  connections.some((c) => (WARNING_CONNECTION_STATUSES as readonly string[]).includes(c.status));

/** core §9: the connections warning is checked 2 s after load. */
export const CONNECTION_CHECK_DELAY_MS = 2_000;
