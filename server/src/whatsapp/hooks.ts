// The seam between WhatsApp sessions and the features that use them. Sessions (sessions.ts) call
// the event handlers; features declare them in their module manifest (`listeners`), and the server
// collects them in module order into `app.hooks`. Features send through `enqueueOutbound`
// (outbound.ts) and learn the outcome through the result handlers.
import type { AppContext } from '../context.js';
import type {
  ContactCard,
  Location,
  MediaRef,
  MessageRef,
  PortEvent,
  SentMessage,
} from './port.js';

export interface ConnectionRef {
  whatsappId: number;
  companyId: number;
}

/**
 * The write-ahead inbox row of the event being handled (whatsapp/inbox.ts). The handler that
 * stores the event's effect settles it (settleInbox, or the batch writer's statement) inside that same
 * transaction; the session deletes rows no handler settled once every handler has run.
 */
export interface InboxEntry {
  id: string;
  settled: boolean;
}

/**
 * Called for every event of a running session, one at a time and in order per session (status
 * events in a lane of their own). A handler that throws makes the session retry that event while
 * the failure is transient, or move it to the dead letters when it is not (handlers must be
 * idempotent). `entry` is absent for events that do not go through the inbox.
 */
/**
 * Stores a run of consecutive inbox rows of a session at once: the longest prefix it can, in
 * order, settling their entries in the transaction that stores them; answers how many. The session
 * then gives those rows to the other handlers, and the rest one at a time to every handler. A
 * negative answer −k stores nothing and says the first k rows are not for the batch: the session
 * handles them one at a time before asking again. A rejection means nothing was stored: the
 * session handles the whole run one at a time.
 */
export type SessionBatchHandler = (
  app: AppContext,
  connection: ConnectionRef,
  items: { event: PortEvent; entry: InboxEntry }[],
) => Promise<number>;

export type SessionEventHandler = ((
  app: AppContext,
  connection: ConnectionRef,
  event: PortEvent,
  entry?: InboxEntry,
) => Promise<void>) & {
  /** The same handler for a run of `message` events (see SessionBatchHandler). */
  batch?: SessionBatchHandler;
};

export type OutboundContent =
  | { kind: 'text'; body: string }
  | {
      kind: 'media';
      /** A file under $DATA_DIR/media. */
      path: string;
      mimetype: string;
      fileName?: string;
      caption?: string;
      voiceNote?: boolean;
    }
  | { kind: 'location'; location: Location }
  | { kind: 'contacts'; cards: ContactCard[] }
  | { kind: 'edit'; target: MessageRef; body: string }
  | { kind: 'delete'; target: MessageRef }
  | { kind: 'react'; target: MessageRef; emoji: string }
  | { kind: 'markRead'; refs: MessageRef[] };

export interface OutboundJob extends ConnectionRef {
  /** Chat address or bare phone digits. */
  to: string;
  content: OutboundContent;
  quoted?: MessageRef;
  /**
   * The WhatsApp id to send under, chosen when the message row is written, so the echo of our own
   * message dedupes against that row.
   */
  waMessageId?: string;
  /** Our message row, when the job sends a stored message. */
  messageId?: number;
}

export type OutboundResult = { ok: true; sent?: SentMessage } | { ok: false; error: string };

/** Called once per job when it finally succeeds or fails (after its retries). */
export type OutboundResultHandler = (
  app: AppContext,
  job: OutboundJob,
  result: OutboundResult,
) => Promise<void>;

/**
 * Finds the `providerPayload` stored with a message we sent (SentMessage.providerPayload), so a
 * provider can answer WhatsApp's retry requests. The first lookup that answers wins.
 */
export type ProviderPayloadLookup = (
  app: AppContext,
  connection: ConnectionRef,
  ref: MessageRef,
) => Promise<string | undefined>;

/** A job that downloads an inbound message's media into $DATA_DIR/media (see media.ts). */
export interface MediaDownloadJob extends ConnectionRef {
  media: MediaRef;
  /** The WhatsApp message the media belongs to. */
  ref: MessageRef;
  /** Our message row, when known. */
  messageId?: number;
}

export type MediaDownloadResult =
  | {
      ok: true;
      /** File name under the company's media folder; serve it as `url`. */
      file: string;
      url: string;
      mimetype: string;
      size: number;
    }
  | { ok: false; error: string };

/** Called once per media job when it finally succeeds or fails (after its retries). */
export type MediaResultHandler = (
  app: AppContext,
  job: MediaDownloadJob,
  result: MediaDownloadResult,
) => Promise<void>;
