import { describe, expect, it } from 'vitest';
import {
  FEED_PAGE_SIZE,
  FeedAnswerError,
  readFeed,
  readFeedAnswer,
  readFeedHead,
  type FeedReadPage,
} from './feed-reader.js';

const row = (seq: number, entity: string, action = 'update', payload: unknown = { action }) => ({
  seq,
  entity,
  entityId: seq * 10,
  action,
  payload,
});

/** A feed that answers by `after`; asking for anything else is a test failure. */
function feed(answers: Record<number, unknown>) {
  const calls: [number, number][] = [];
  const applied: { seqs: number[]; events: (string | null)[]; cursor: number }[] = [];
  const options = {
    fetchPage: async (after: number, limit: number) => {
      calls.push([after, limit]);
      if (!(after in answers)) throw new Error(`unexpected request after=${after}`);
      return JSON.parse(JSON.stringify(answers[after])) as unknown;
    },
    applyPage: (page: FeedReadPage) => {
      applied.push({
        seqs: page.entries.map((e) => e.seq),
        events: page.entries.map((e) => e.event),
        cursor: page.cursor,
      });
    },
  };
  return { options, calls, applied };
}

interface Case {
  name: string;
  from: number;
  answers: Record<number, unknown>;
  /** The `after` of each request, in order. */
  asked: number[];
  applied: { seqs: number[]; events: (string | null)[]; cursor: number }[];
  result?: object;
  error?: RegExp;
}

const cases: Case[] = [
  {
    name: 'an empty feed: one request, nothing applied, the cursor stays',
    from: 0,
    answers: { 0: { changes: [], hasMore: false, last: 0, head: 0 } },
    asked: [0],
    applied: [],
    result: { kind: 'caught-up', cursor: 0, pages: 0 },
  },
  {
    name: 'a caught-up client at the head',
    from: 42,
    answers: { 42: { changes: [], hasMore: false, last: 42, head: 42 } },
    asked: [42],
    applied: [],
    result: { kind: 'caught-up', cursor: 42, pages: 0 },
  },
  {
    name: 'several pages: each applied with its cursor before the next is asked',
    from: 10,
    answers: {
      10: { changes: [row(11, 'ticket'), row(12, 'note', 'create')], hasMore: true, last: 12 },
      12: { changes: [row(13, 'message', 'create'), row(14, 'contact')], hasMore: true, last: 14 },
      14: { changes: [row(15, 'tag', 'delete')], hasMore: false, last: 15, head: 15 },
    },
    asked: [10, 12, 14],
    applied: [
      { seqs: [11, 12], events: ['ticket', null], cursor: 12 },
      { seqs: [13, 14], events: ['appMessage', 'contact'], cursor: 14 },
      { seqs: [15], events: ['tag'], cursor: 15 },
    ],
    result: { kind: 'caught-up', cursor: 15, pages: 3 },
  },
  {
    name: 'a gap in the numbers (rows the viewer may not see): the cursor still moves past them',
    from: 0,
    answers: {
      0: { changes: [row(2, 'ticket'), row(7, 'message', 'create')], hasMore: true, last: 9 },
      9: { changes: [], hasMore: false, last: 12, head: 12 },
    },
    asked: [0, 9],
    applied: [
      { seqs: [2, 7], events: ['ticket', 'appMessage'], cursor: 9 },
      { seqs: [], events: [], cursor: 12 },
    ],
    result: { kind: 'caught-up', cursor: 12, pages: 2 },
  },
  {
    name: 'an entity this client does not know replays as no event; the cursor moves past it',
    from: 0,
    answers: { 0: { changes: [row(1, 'kanbanLane')], hasMore: false, last: 1 } },
    asked: [0],
    applied: [{ seqs: [1], events: [null], cursor: 1 }],
    result: { kind: 'caught-up', cursor: 1, pages: 1 },
  },
  {
    name: 'resetRequired at once: reported with the head, nothing applied',
    from: 3,
    answers: { 3: { resetRequired: true, head: 40 } },
    asked: [3],
    applied: [],
    result: { kind: 'reset', head: 40, cursor: 3, pages: 0 },
  },
  {
    name: 'resetRequired after a page (pruned meanwhile): the applied page stays, reset at head',
    from: 3,
    answers: {
      3: { changes: [row(4, 'ticket')], hasMore: true, last: 4 },
      4: { resetRequired: true, head: 90 },
    },
    asked: [3, 4],
    applied: [{ seqs: [4], events: ['ticket'], cursor: 4 }],
    result: { kind: 'reset', head: 90, cursor: 4, pages: 1 },
  },
  {
    name: 'malformed: resetRequired without head',
    from: 3,
    answers: { 3: { resetRequired: true } },
    asked: [3],
    applied: [],
    error: /after=3: not a feed answer \(head: /,
  },
  {
    name: 'malformed: changes is not a list',
    from: 0,
    answers: { 0: { changes: 'x', hasMore: false, last: 0 } },
    asked: [0],
    applied: [],
    error: /not a feed answer \(changes: /,
  },
  {
    name: 'malformed: a row without its number',
    from: 0,
    answers: { 0: { changes: [{ entity: 'ticket', entityId: 1 }], hasMore: false, last: 1 } },
    asked: [0],
    applied: [],
    error: /not a feed answer \(changes\.0\.seq: /,
  },
  {
    name: 'malformed: an HTML error page instead of JSON',
    from: 0,
    answers: { 0: '<html>502 Bad Gateway</html>' },
    asked: [0],
    applied: [],
    error: /not a feed answer/,
  },
  {
    name: 'malformed on the second page: the first stays applied',
    from: 0,
    answers: {
      0: { changes: [row(1, 'tag')], hasMore: true, last: 1 },
      1: { changes: [row(2, 'tag')], last: 2 },
    },
    asked: [0, 1],
    applied: [{ seqs: [1], events: ['tag'], cursor: 1 }],
    error: /after=1: not a feed answer \(hasMore: /,
  },
  {
    name: 'a row at or before the cursor',
    from: 5,
    answers: { 5: { changes: [row(5, 'ticket')], hasMore: false, last: 5 } },
    asked: [5],
    applied: [],
    error: /row 5 is out of order/,
  },
  {
    name: 'rows out of order',
    from: 0,
    answers: { 0: { changes: [row(3, 'ticket'), row(2, 'ticket')], hasMore: false, last: 3 } },
    asked: [0],
    applied: [],
    error: /row 2 is out of order/,
  },
  {
    name: 'a row beyond last',
    from: 0,
    answers: { 0: { changes: [row(4, 'ticket')], hasMore: false, last: 3 } },
    asked: [0],
    applied: [],
    error: /row 4 is out of order/,
  },
  {
    name: 'last behind the cursor',
    from: 8,
    answers: { 8: { changes: [], hasMore: false, last: 6 } },
    asked: [8],
    applied: [],
    error: /last 6 is behind the cursor/,
  },
  {
    name: 'hasMore without moving (would loop forever)',
    from: 8,
    answers: { 8: { changes: [], hasMore: true, last: 8 } },
    asked: [8],
    applied: [],
    error: /hasMore without moving/,
  },
];

describe('readFeed', () => {
  it.each(cases)('$name', async (c) => {
    const { options, calls, applied } = feed(c.answers);
    const run = readFeed({ from: c.from, ...options });
    if (c.error) {
      await expect(run).rejects.toThrow(FeedAnswerError);
      await expect(readFeed({ from: c.from, ...feed(c.answers).options })).rejects.toThrow(c.error);
    } else {
      expect(await run).toEqual(c.result);
    }
    expect(calls).toEqual(c.asked.map((after) => [after, FEED_PAGE_SIZE]));
    expect(applied).toEqual(c.applied);
  });

  it('asks for the page size it is given', async () => {
    const { options, calls } = feed({ 0: { changes: [], hasMore: false, last: 0 } });
    await readFeed({ from: 0, limit: 50, ...options });
    expect(calls).toEqual([[0, 50]]);
  });

  it('waits for a page to be applied before asking for the next', async () => {
    const order: string[] = [];
    let release!: () => void;
    const applying = new Promise<void>((resolve) => (release = resolve));
    const run = readFeed({
      from: 0,
      fetchPage: async (after) => {
        order.push(`fetch ${after}`);
        return after === 0
          ? { changes: [row(1, 'tag')], hasMore: true, last: 1 }
          : { changes: [], hasMore: false, last: 1 };
      },
      applyPage: async (page) => {
        order.push(`apply ${page.cursor}`);
        await applying;
        order.push(`saved ${page.cursor}`);
      },
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(['fetch 0', 'apply 1']);
    release();
    await run;
    expect(order).toEqual(['fetch 0', 'apply 1', 'saved 1', 'fetch 1']);
  });

  it('a failed apply stops the read and nothing after it is asked', async () => {
    const { options, calls } = feed({
      0: { changes: [row(1, 'tag')], hasMore: true, last: 1 },
    });
    const run = readFeed({
      ...options,
      from: 0,
      applyPage: () => Promise.reject(new Error('disk full')),
    });
    await expect(run).rejects.toThrow('disk full');
    expect(calls).toEqual([[0, FEED_PAGE_SIZE]]);
  });
});

describe('readFeedAnswer', () => {
  it('replays each row as its event: the payload with the row number, other fields kept', () => {
    const payload = { action: 'create', message: { id: 5, ticketId: 6 }, ticket: { id: 6 } };
    const step = readFeedAnswer(
      { changes: [row(3, 'message', 'create', payload)], hasMore: false, last: 3, head: 7 },
      2,
    );
    expect(step).toEqual({
      kind: 'page',
      page: {
        entries: [
          {
            ...row(3, 'message', 'create', payload),
            event: 'appMessage',
            eventPayload: { ...payload, seq: 3 },
          },
        ],
        cursor: 3,
        hasMore: false,
        head: 7,
      },
    });
  });

  it('does not take an inherited key for an entity', () => {
    const step = readFeedAnswer({ changes: [row(1, 'toString')], hasMore: false, last: 1 }, 0);
    expect(step.kind === 'page' && step.page.entries[0]!.event).toBeNull();
  });
});

describe('readFeedHead', () => {
  it.each([
    ['the head a reset states', { resetRequired: true, head: 77 }, 77],
    [
      'the head of an empty page (a company with no feed yet)',
      { changes: [], hasMore: false, last: Number.MAX_SAFE_INTEGER, head: 0 },
      0,
    ],
  ])('takes %s, in one request', async (_, answer, head) => {
    const asked: number[] = [];
    const fetch = async (after: number) => {
      asked.push(after);
      return answer;
    };
    expect(await readFeedHead(fetch)).toBe(head);
    expect(asked).toEqual([Number.MAX_SAFE_INTEGER]);
  });

  it.each([
    [
      'an answer with no head',
      { changes: [], hasMore: false, last: Number.MAX_SAFE_INTEGER },
      /states no head/,
    ],
    ['a reset without head', { resetRequired: true }, /not a feed answer/],
  ])('says why for %s', async (_, answer, error) => {
    await expect(readFeedHead(async () => answer)).rejects.toThrow(error);
  });
});
