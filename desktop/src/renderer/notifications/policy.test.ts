import type { TicketViewer } from '@atende/shared';
import { describe, expect, it } from 'vitest';
import { shouldNotify } from './policy';

const viewer: TicketViewer = { id: 7, profile: 'user', queueIds: [3], allTicket: 'desabled' };
const ticket = { uuid: 'u1', queueId: 3, status: 'pending', userId: null } as const;
const away = { focused: false, openTicketUuid: undefined };

describe('shouldNotify', () => {
  it.each([
    ['a customer message on a pending ticket of my queue', { fromMe: false }, ticket, away, true],
    ['my own message', { fromMe: true }, ticket, away, false],
    ["another queue's ticket", { fromMe: false }, { ...ticket, queueId: 4 }, away, false],
    [
      "another agent's open ticket",
      { fromMe: false },
      { ...ticket, status: 'open', userId: 8 },
      away,
      false,
    ],
    ['my open ticket', { fromMe: false }, { ...ticket, status: 'open', userId: 7 }, away, true],
    [
      'the ticket I am looking at',
      { fromMe: false },
      ticket,
      { focused: true, openTicketUuid: 'u1' },
      false,
    ],
    [
      'that ticket while the window is in the background',
      { fromMe: false },
      ticket,
      { focused: false, openTicketUuid: 'u1' },
      true,
    ],
  ] as const)('%s → %s', (_, message, t, context, expected) => {
    expect(shouldNotify(message, t, viewer, context)).toBe(expected);
  });
});
