import { describe, expect, it } from 'vitest';
import { ticketEvents } from './ticket-events.js';

const t = (status: string, queueId: number | null, userId: number | null) => ({
  id: 7,
  status,
  queueId,
  userId,
});

describe('ticketEvents', () => {
  it.each([
    ['accept', t('pending', 1, null), t('open', 1, 5), []],
    ['return to the queue', t('open', 1, 5), t('pending', 1, null), []],
    ['close', t('open', 1, 5), t('closed', 1, 5), ['ticket.closed']],
    ['reopen', t('closed', 1, 5), t('open', 1, 5), ['ticket.reopened']],
    ['to another queue', t('pending', 1, null), t('pending', 2, null), ['ticket.transferred']],
    ['to another agent', t('open', 1, 5), t('open', 1, 6), ['ticket.transferred']],
    [
      'reopened into another queue',
      t('closed', 1, 5),
      t('open', 2, 5),
      ['ticket.reopened', 'ticket.transferred'],
    ],
    ['closed while moving', t('open', 1, 5), t('closed', 2, 5), ['ticket.closed']],
    ['nothing', t('open', 1, 5), t('open', 1, 5), []],
  ])('%s', (_name, before, after, types) => {
    expect(ticketEvents(before, after, 'agent').map((e) => e.type)).toEqual(types);
  });

  it('says who moved the ticket and from where to where', () => {
    expect(ticketEvents(t('open', 1, 5), t('open', 2, 6), 'system')).toEqual([
      {
        type: 'ticket.transferred',
        payload: {
          ticketId: 7,
          fromQueueId: 1,
          toQueueId: 2,
          fromUserId: 5,
          toUserId: 6,
          by: 'system',
        },
      },
    ]);
  });
});
