import { describe, expect, it } from 'vitest';
import type { PlanFlags } from '../api/types';
import { connectionsNeedAttention, menuFor, type MenuSections } from './menu';

const allFlags: PlanFlags = {
  useCampaigns: true,
  useSchedules: true,
  useInternalChat: true,
  useExternalApi: true,
  useKanban: true,
  useOpenAi: true,
  useIntegrations: true,
};
const noFlags: PlanFlags = {
  useCampaigns: false,
  useSchedules: false,
  useInternalChat: false,
  useExternalApi: false,
  useKanban: false,
  useOpenAi: false,
  useIntegrations: false,
};
const paths = (s: MenuSections) => ({
  main: s.main.map((e) => e.to),
  admin: s.admin.map((e) => e.to),
});

describe('menuFor (core §2)', () => {
  it('an admin with every plan flag and cshow sees everything but announcements', () => {
    expect(
      paths(menuFor({ profile: 'admin', super: false }, allFlags, { campaigns: true })),
    ).toEqual({
      main: [
        '/',
        '/tickets',
        '/kanban',
        '/quick-messages',
        '/todolist',
        '/contacts',
        '/schedules',
        '/tags',
        '/chats',
        '/helps',
        '/campaigns',
      ],
      admin: [
        '/prompts',
        '/queue-integration',
        '/connections',
        '/files',
        '/queues',
        '/users',
        '/messages-api',
        '/financeiro',
        '/settings',
      ],
    });
  });

  it('a super user also sees announcements', () => {
    const s = menuFor({ profile: 'admin', super: true }, allFlags, { campaigns: true });
    expect(s.main.map((e) => e.to)).toContain('/announcements');
  });

  it('a user sees no dashboard, no campaigns and no Administration block', () => {
    expect(
      paths(menuFor({ profile: 'user', super: false }, allFlags, { campaigns: true })),
    ).toEqual({
      main: [
        '/tickets',
        '/kanban',
        '/quick-messages',
        '/todolist',
        '/contacts',
        '/schedules',
        '/tags',
        '/chats',
        '/helps',
      ],
      admin: [],
    });
  });

  it('plan flags hide their items; campaigns also need cshow', () => {
    const s = paths(menuFor({ profile: 'admin', super: false }, noFlags, { campaigns: true }));
    expect(s.main).toEqual([
      '/',
      '/tickets',
      '/quick-messages',
      '/todolist',
      '/contacts',
      '/tags',
      '/helps',
    ]);
    expect(s.admin).toEqual([
      '/connections',
      '/files',
      '/queues',
      '/users',
      '/financeiro',
      '/settings',
    ]);
    const noCshow = menuFor({ profile: 'admin', super: false }, allFlags, { campaigns: false });
    expect(noCshow.main.map((e) => e.to)).not.toContain('/campaigns');
  });

  it('the campaigns group holds list, contact lists and settings', () => {
    const s = menuFor({ profile: 'admin', super: false }, allFlags, { campaigns: true });
    const group = s.main.find((e) => e.key === 'campaigns');
    expect(group?.children?.map((e) => e.to)).toEqual([
      '/campaigns',
      '/contact-lists',
      '/campaigns-config',
    ]);
  });
});

describe('connectionsNeedAttention', () => {
  it.each([
    ['CONNECTED', false],
    ['qrcode', true],
    ['PAIRING', true],
    ['DISCONNECTED', true],
    ['TIMEOUT', true],
    ['OPENING', true],
  ])('%s → %s', (status, expected) => {
    expect(connectionsNeedAttention([{ status: 'CONNECTED' }, { status }])).toBe(expected);
  });
});
