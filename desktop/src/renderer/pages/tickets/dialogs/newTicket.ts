import type { ApiError } from '../../../api/errors';
import type { Contact, Queue } from '../../../api/types';

/** core §9: the contact lookup waits 1500 ms; core §5: it needs at least 3 characters. */
export const CONTACT_LOOKUP_DELAY_MS = 1_500;
export const CONTACT_SEARCH_MIN_CHARS = 3;

export const wantsContactSearch = (input: string): boolean =>
  input.trim().length >= CONTACT_SEARCH_MIN_CHARS;

export type ContactOption =
  { kind: 'contact'; contact: Contact } | { kind: 'create'; name: string };

/** The found contacts, plus 'create contact' for a typed name that none of them carries. */
export function contactOptions(found: readonly Contact[], input: string): ContactOption[] {
  const options: ContactOption[] = found.map((contact) => ({ kind: 'contact', contact }));
  const name = input.trim();
  const known = found.some((c) => c.name.trim().toLowerCase() === name.toLowerCase());
  if (wantsContactSearch(name) && !known) options.push({ kind: 'create', name });
  return options;
}

/** The first problem of the form, as an i18n key: a queue is required unless admin. */
export function newTicketProblem(form: {
  contact: Contact | null;
  queueId: number | null;
  isAdmin: boolean;
}): string | null {
  if (!form.contact) return 'newTicket.contact';
  if (!form.queueId && !form.isAdmin) return 'validation.selectQueue';
  return null;
}

export interface OtherOpenTicket {
  ticketId: number;
  uuid: string;
  user?: { id: number; name: string } | null;
  queue?: Queue | null;
}

/** The open ticket an ERR_OTHER_OPEN_TICKET answer carries (core §8 special handling). */
export function otherOpenTicket(error: ApiError): OtherOpenTicket | null {
  if (error.code !== 'ERR_OTHER_OPEN_TICKET') return null;
  const details = error.details as Partial<OtherOpenTicket> | undefined;
  return details?.uuid ? (details as OtherOpenTicket) : null;
}
