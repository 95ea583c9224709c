/** Truncations of core §2 and §9. */
import { NARROW_BREAKPOINT } from './layout.js';

export const ELLIPSIS = '...';
export const SHORT_NAME_LENGTH = 10;
export const PREVIEW_LENGTH = 20;
export const QUICK_MESSAGE_LABEL_LENGTH = 35;

/** `text` cut to `max` characters plus an ellipsis when longer; unchanged otherwise. */
export const truncate = (text: string, max: number): string =>
  text.length > max ? text.slice(0, max) + ELLIPSIS : text;

/** Contact names are shortened to 10 characters under 600 px wide. */
export const shortenContactName = (name: string, viewportWidth: number): string =>
  viewportWidth < NARROW_BREAKPOINT ? truncate(name, SHORT_NAME_LENGTH) : name;

/** The last-message preview is trimmed to 20 characters in compact mode. */
export const previewText = (body: string, compact: boolean): string =>
  compact ? truncate(body, PREVIEW_LENGTH) : body;

/** Quick-message suggestion labels are cut at 35 characters. */
export const quickMessageLabel = (message: string): string =>
  truncate(message, QUICK_MESSAGE_LABEL_LENGTH);

/** Quick-message suggestions show when the input starts with / and has more than 1 character. */
export const wantsQuickMessages = (input: string): boolean =>
  input.startsWith('/') && input.length > 1;
