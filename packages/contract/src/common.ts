import { z } from 'zod';

/**
 * What a phone field accepts before the phone rule (`phone.ts`) runs: any typed form, up to 40
 * characters. Here rather than there, so the schemas that only carry a phone (and the pages that
 * import them) do not bring libphonenumber's metadata.
 */
export const phoneInputSchema = z.string().trim().min(1).max(40);

/** Ids are UUIDs; a malformed one is a validation error naming the field, never a 500. */
export const idSchema = z.uuid();

/** An IANA time zone the runtime knows ("Europe/London"). */
export const timezoneSchema = z
  .string()
  .min(1)
  .max(64)
  .refine((value) => {
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
