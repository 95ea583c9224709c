import { z } from 'zod';

/** A timestamp as JSON carries it (ISO 8601): how answers declare dates. */
export const wireDate = z.string();
/** A whole number in an answer (ids, counts). */
export const wireInt = z.number().int();
/** A message answer (`{message}`): deletes, sign-outs, session actions. */
export const messageAnswer = z.object({ message: z.string() });

/** The largest id Postgres `int4` holds. */
export const INT4_MAX = 2_147_483_647;

/**
 * An id in a path, query or body, in its one canonical form: a positive decimal integer in
 * int4 range, with no sign, space, leading zero, exponent, fraction or hex (`1`, never `01`,
 * ` 1`, `1e0`, `0x1`, `1.0`). A JSON body may send it as a number.
 */
export const idSchema = z
  .union([
    z.number().int().min(1),
    z
      .string()
      .regex(/^[1-9]\d{0,9}$/, 'expected a positive decimal id')
      .transform(Number),
  ])
  .pipe(z.number().max(INT4_MAX, 'expected an id in range'));
export const idParams = z.object({ id: idSchema });

/**
 * A count in a query string (page number, limit, days) in canonical decimal, like ids: `2`,
 * never `02`, ` 2`, `2e0` or `0x2`. A JSON body may send it as a number.
 */
export const queryInt = (min: number, max: number) =>
  z
    .union([
      z.number().int(),
      z
        .string()
        .regex(/^(0|[1-9]\d{0,8})$/, 'expected a decimal number')
        .transform(Number),
    ])
    .pipe(z.number().min(min).max(max));

/** A ticket's public uuid (the spec's `/tickets/u/:uuid`). */
export const uuidSchema = z.string().uuid();

/** Control characters no request text may hold: NUL and every C0/C1 control but \t \n \r. */
// eslint-disable-next-line no-control-regex
export const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
// eslint-disable-next-line no-control-regex
const LINE_BREAKS_AND_CONTROLS = /[\u0000-\u001F\u007F-\u009F]/;
/** True when a one-line value holds no control character (nor a line break or tab). */
export const isOneLine = (v: string) => !LINE_BREAKS_AND_CONTROLS.test(v);

/** Free text (messages, notes, greetings): line breaks and tabs allowed, other controls not. */
export const textSchema = (max: number) =>
  z
    .string()
    .max(max)
    .refine((v) => !CONTROL_CHARACTERS.test(v), 'control characters are not allowed');

/** One line (names, e-mails, colours, keys): no line breaks, tabs or other controls. */
export const lineSchema = (max: number) =>
  z
    .string()
    .max(max)
    .refine((v) => !LINE_BREAKS_AND_CONTROLS.test(v), 'control characters are not allowed');

/** True when free text holds no control character other than \t \n \r. */
export const isText = (v: string) => !CONTROL_CHARACTERS.test(v);

/**
 * A calendar day `yyyy-MM-dd` that exists (no 2024-02-30, no year 0). A time part may follow (as
 * a date picker sends it) and is dropped: every filter that takes a day reads only the day, so
 * nothing after it ever reaches Postgres.
 */
export const isoDay = lineSchema(40)
  .regex(/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/, 'yyyy-MM-dd')
  .refine((v) => {
    const day = v.slice(0, 10);
    const date = new Date(`${day}T00:00:00Z`);
    return (
      day >= '0001-01-01' && !Number.isNaN(date.getTime()) && date.toISOString().startsWith(day)
    );
  }, 'yyyy-MM-dd')
  .transform((v) => v.slice(0, 10));

export const pageQuery = z.object({
  searchParam: lineSchema(200).optional().default(''),
  pageNumber: queryInt(1, 100_000).optional().default(1),
});

/** Name rule shared by users, contacts, queues and connections: 2 to 50 characters. */
export const nameSchema = z
  .string({ error: 'Required' })
  .trim()
  .min(2, 'Too Short!')
  .max(50, 'Too Long!')
  .refine((v) => !LINE_BREAKS_AND_CONTROLS.test(v), 'control characters are not allowed');

export const emailSchema = z.string({ error: 'Required' }).trim().email('Invalid email').max(255);

/** Largest value a change-feed sequence (bigint) may be asked from, in canonical decimal. */
export const sequenceSchema = z
  .union([
    z.number().int().min(0),
    z
      .string()
      .regex(/^(0|[1-9]\d{0,15})$/, 'expected a decimal number')
      .transform(Number),
  ])
  .pipe(z.number().max(Number.MAX_SAFE_INTEGER));

/**
 * Every table a request may point into, with the ids a request names. `route()` checks each one
 * belongs to the caller's company before the handler runs (server/src/http/references.ts).
 */
export const REFERENCE_KINDS = [
  'whatsapp',
  'queue',
  'user',
  'tag',
  'contact',
  'ticket',
  'message',
  'queueOption',
  'quickMessage',
  'prompt',
  'integration',
  'contactList',
] as const;
export type ReferenceKind = (typeof REFERENCE_KINDS)[number];
export interface Reference {
  kind: ReferenceKind;
  id: number;
}

/** Which schema is a reference to which table (read by tests that list every reference). */
export const referenceRegistry = z.registry<{ reference: ReferenceKind }>();

// zod parses synchronously: route() opens a collector, parses, and closes it, so the ids a
// parse meets are exactly those of the request. Outside a collector (clients) nothing is kept.
let collector: Reference[] | undefined;

/** Runs a synchronous parse and returns what it returned with every reference it met. */
export function collectReferences<T>(parse: () => T): { result: T; references: Reference[] } {
  const outer = collector;
  const references: Reference[] = [];
  collector = references;
  try {
    return { result: parse(), references };
  } finally {
    collector = outer;
  }
}

/** An id that names a row of the caller's company in table `kind` (404 if it does not). */
export function ref(kind: ReferenceKind) {
  const schema = idSchema.transform((id) => {
    collector?.push({ kind, id });
    return id;
  });
  schema.register(referenceRegistry, { reference: kind });
  return schema;
}
