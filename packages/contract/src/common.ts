import { z } from 'zod';

/**
 * Input bounds (issue 14): every value the API takes is bounded here, before it reaches the
 * database, so hostile input is a 400 naming the field, never a 500.
 */

/** PostgreSQL's `integer` (int4) stores every whole number the API takes. */
export const INT4_MIN = -2_147_483_648;
export const INT4_MAX = 2_147_483_647;

/** A whole number in a JSON body; add the field's own `.min()`/`.max()`. */
export const int4Schema = z.int().min(INT4_MIN).max(INT4_MAX);

/** A whole number in a path or query string (text, coerced); add the field's own bounds. */
export const int4ParamSchema = z.coerce.number().int().min(INT4_MIN).max(INT4_MAX);

/**
 * Text holds no control characters (NUL, which PostgreSQL cannot store, escapes, ...) and no
 * lone surrogates (not Unicode); multi-line text may hold tabs and line breaks.
 */
const singleLine = /^[^\p{Cc}\p{Cs}]*$/u;
const multiLine = /^(?:[\t\n\r]|[^\p{Cc}\p{Cs}])*$/u;
const controlMessage = 'Must not contain control characters';

/** The one rule for free text: trimmed, at most `max` characters, no control characters. */
export function textSchema(max: number, options: { min?: number; multiline?: boolean } = {}) {
  const text = z.string().trim();
  return (options.min ? text.min(options.min) : text)
    .max(max)
    .regex(options.multiline ? multiLine : singleLine, controlMessage);
}

/** Whether `value` is free text the API would take (the same rule, for other parsers). */
export function isPlainText(value: string, options: { multiline?: boolean } = {}): boolean {
  return (options.multiline ? multiLine : singleLine).test(value);
}

/** A web address (a logo, an avatar): http(s), at most 2048 characters, no control characters. */
export const urlSchema = z
  .url({ protocol: /^https?$/ })
  .max(2048)
  .regex(singleLine, controlMessage);

/**
 * What a phone field accepts before the phone rule (`phone.ts`) runs: any typed form, up to 40
 * characters. Here rather than there, so the schemas that only carry a phone (and the pages that
 * import them) do not bring libphonenumber's metadata.
 */
export const phoneInputSchema = textSchema(40, { min: 1 });

/** Ids are UUIDs; a malformed one is a validation error naming the field, never a 500. */
export const idSchema = z.uuid();

/** An IANA time zone the runtime knows ("Europe/London"). */
export const timezoneSchema = textSchema(64, { min: 1 }).refine((value) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}, 'Must be an IANA time zone such as Europe/London');

/** ISO 4217 code in capitals ("USD"). */
export const currencySchema = z
  .string()
  .regex(/^[A-Z]{3}$/, 'Must be a 3-letter ISO currency code');

export const timestampSchema = z.iso.datetime({ offset: true });

export const okSchema = z.object({ ok: z.literal(true) }).meta({ id: 'Ok' });
