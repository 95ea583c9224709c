import { z } from 'zod';
import { idSchema, ref, type ReferenceKind } from './common.js';

/*
 * Liberal input, strict storage (issue 13): clients written for the Whaticket API send the same
 * value in several shapes (`read: 1`, `promptId: false`, `queueId: ""`, numbers as strings).
 * These preprocessors accept those shapes and hand the schema one canonical value.
 */

const TRUE = new Set<unknown>([true, 1, '1', 'true', 'on', 'yes', 't', 'enabled']);
const FALSE = new Set<unknown>([false, 0, '0', 'false', 'off', 'no', 'f', 'disabled']);
/** What the old clients send for "no row": `false`, `""`, `0` and `null` (also as strings). */
const NONE = new Set<unknown>([null, false, '', 0, '0', 'null', 'false', 'undefined']);

/** A boolean in any of its old-client shapes; `null` and `""` mean "not given". */
export function toBoolean(value: unknown): unknown {
  if (value === null || value === '') return undefined;
  const key = typeof value === 'string' ? value.trim().toLowerCase() : value;
  if (TRUE.has(key)) return true;
  if (FALSE.has(key)) return false;
  return value;
}

/** `true`/`false`, `1`/`0`, `'true'`/`'false'`/`'1'`/`'0'`; absent, `null` or `""` → undefined. */
export const looseBoolean = z.preprocess(toBoolean, z.boolean().optional());

/** A reference to another row or "none": `false`, `""`, `0` and `null` all become `null`. */
export function toIdOrNone(value: unknown): unknown {
  if (NONE.has(typeof value === 'string' ? value.trim() : value)) return null;
  // `true` would coerce to id 1; no old client means that.
  return value === true ? 'true' : value;
}

/** An optional id that may be "none" (stored as NULL); numeric strings are accepted. */
export const idOrNone = z.preprocess(toIdOrNone, idSchema.nullable()).optional();

/** An enum value where old clients send `""` for "not chosen" (absent). */
export const optionalChoice = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess((v) => (v === '' || v === null ? undefined : v), z.enum(values).optional());

/**
 * A reference to a row of the caller's company (see `ref`: checked by the route layer) or "none"
 * in any of the old clients' shapes (stored as NULL).
 */
export const refOrNone = (kind: ReferenceKind) =>
  z.preprocess(toIdOrNone, ref(kind).nullable()).optional();
