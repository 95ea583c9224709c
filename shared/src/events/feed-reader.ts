/**
 * The one reader of the change feed (`GET /sync/changes`), shared by the web build's catch-up
 * (`desktop/src/renderer/session/realtime.ts`) and the desktop's sync engine
 * (`desktop/src/main/core/sync-engine.ts`). Pure: the caller passes in how to fetch a page and
 * how to apply one; the reader pages from a cursor, checks each answer against `feedAnswer` (its
 * reset or its page branch), turns `resetRequired` into a reset at `head`, names the company
 * event each row replays as (`EVENT_OF_ENTITY`), and hands over the cursor to persist with each
 * page.
 */
import {
  EVENT_OF_ENTITY,
  feedPage,
  feedReset,
  type CompanyEventName,
  type FeedChange,
} from './index.js';

/** The page size a reader asks for unless told (the server's default, `syncQuery.limit`). */
export const FEED_PAGE_SIZE = 500;

/** One row of the feed, with the company event it replays as. */
export interface FeedEntry extends FeedChange {
  /** The event this row is published as (the shared map); null: feed only (notes, or unknown). */
  event: CompanyEventName | null;
  /** The payload as the socket event carries it: the row's payload with its `seq`. */
  eventPayload: unknown;
}

/** A page, ready to apply. */
export interface FeedReadPage {
  /** The rows the viewer may see, in feed order (numbers may skip: hidden rows are left out). */
  entries: FeedEntry[];
  /**
   * Persist this as the cursor once the entries are applied, with them in one transaction
   * where the store has one: a crash then replays the page, never skips it.
   */
  cursor: number;
  hasMore: boolean;
  /** The feed's number when the server answered, when it says. */
  head: number | null;
}

/** What one answer says: a page after `after`, or that the feed cannot tell (resync at `head`). */
export type FeedStep = { kind: 'page'; page: FeedReadPage } | { kind: 'reset'; head: number };

/** The feed answered something a reader cannot use; the message says what and where. */
export class FeedAnswerError extends Error {
  constructor(
    readonly after: number,
    detail: string,
  ) {
    super(`GET /sync/changes?after=${after}: ${detail}`);
    this.name = 'FeedAnswerError';
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The company event a feed entity replays as; null for notes and entities this client lacks. */
export function eventOfEntity(entity: string): CompanyEventName | null {
  return Object.hasOwn(EVENT_OF_ENTITY, entity)
    ? EVENT_OF_ENTITY[entity as keyof typeof EVENT_OF_ENTITY]
    : null;
}

/**
 * Reads one answer to `GET /sync/changes?after=<after>`. Throws `FeedAnswerError` when it does
 * not match `feedAnswer`, or when its numbers do not follow `after`: `last` behind `after`, a row
 * at or before `after`, beyond `last` or out of order, or `hasMore` without moving on (a reader
 * would ask the same page forever). Numbers missing between rows are normal (hidden rows).
 */
export function readFeedAnswer(raw: unknown, after: number): FeedStep {
  // The branch the answer claims to be, so that an issue names the field that is wrong.
  const schema = isRecord(raw) && 'resetRequired' in raw ? feedReset : feedPage;
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 3)
      .map((issue) => `${issue.path.join('.') || '(answer)'}: ${issue.message}`)
      .join('; ');
    throw new FeedAnswerError(after, `not a feed answer (${issues})`);
  }
  const answer = parsed.data;
  if ('resetRequired' in answer) return { kind: 'reset', head: answer.head };
  if (answer.last < after) {
    throw new FeedAnswerError(after, `last ${answer.last} is behind the cursor`);
  }
  let previous = after;
  for (const change of answer.changes) {
    if (change.seq <= previous || change.seq > answer.last) {
      throw new FeedAnswerError(
        after,
        `row ${change.seq} is out of order (after ${previous}, last ${answer.last})`,
      );
    }
    previous = change.seq;
  }
  if (answer.hasMore && answer.last === after) {
    throw new FeedAnswerError(after, 'hasMore without moving past the cursor');
  }
  const entries = answer.changes.map((change): FeedEntry => {
    const event = eventOfEntity(change.entity);
    const eventPayload = isRecord(change.payload)
      ? { ...change.payload, seq: change.seq }
      : change.payload;
    return { ...change, event, eventPayload };
  });
  return {
    kind: 'page',
    page: { entries, cursor: answer.last, hasMore: answer.hasMore, head: answer.head ?? null },
  };
}

export interface ReadFeedOptions {
  /** The cursor to read after (the last number applied). */
  from: number;
  /** `GET /sync/changes?after=&limit=`: the answer's JSON. Rejects when the request failed. */
  fetchPage(after: number, limit: number): Promise<unknown>;
  /** Applies a page and persists `page.cursor` with it; the next page waits for it. */
  applyPage(page: FeedReadPage): unknown;
  limit?: number;
}

/**
 * How a read ended: `caught-up` at `cursor` (every page applied), or `reset`: the feed cannot
 * tell what was missed after `cursor`; reload everything and resume after `head`.
 */
export type FeedReadResult =
  | { kind: 'caught-up'; cursor: number; pages: number }
  | { kind: 'reset'; head: number; cursor: number; pages: number };

/**
 * Pages through the feed after `from` until it has no more, applying each page before asking
 * for the next. A page that brings nothing and does not move the cursor is not applied.
 */
export async function readFeed(options: ReadFeedOptions): Promise<FeedReadResult> {
  const limit = options.limit ?? FEED_PAGE_SIZE;
  let cursor = options.from;
  let pages = 0;
  for (;;) {
    const step = readFeedAnswer(await options.fetchPage(cursor, limit), cursor);
    if (step.kind === 'reset') return { kind: 'reset', head: step.head, cursor, pages };
    const { page } = step;
    if (page.entries.length > 0 || page.cursor > cursor) {
      await options.applyPage(page);
      pages++;
    }
    cursor = page.cursor;
    if (!page.hasMore) return { kind: 'caught-up', cursor, pages };
  }
}

/**
 * The feed's current number, for a full resync that reads everything after it: one request past
 * any number, answered by `resetRequired` with `head` (or, for a company that has no feed yet,
 * an empty page with `head`).
 */
export async function readFeedHead(
  fetchPage: (after: number, limit: number) => Promise<unknown>,
): Promise<number> {
  const after = Number.MAX_SAFE_INTEGER;
  const step = readFeedAnswer(await fetchPage(after, 1), after);
  if (step.kind === 'reset') return step.head;
  if (step.page.head === null) throw new FeedAnswerError(after, 'the answer states no head');
  return step.page.head;
}
