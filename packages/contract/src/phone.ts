import {
  type CountryCode,
  isSupportedCountry,
  parsePhoneNumberFromString,
} from 'libphonenumber-js';
import { z } from 'zod';

/**
 * The one phone rule (issue 11, 4.4), shared by the server (which enforces it on every phone
 * entered through /api) and the web (which checks forms with it before sending): a number is
 * read in the company's country unless it starts with `+` (or `00`), must be a valid number
 * by libphonenumber's metadata, and is stored in E.164 (`+447911123456`), the form SMS
 * providers take.
 */

/** The error code the API answers for a phone this rule refuses. */
export const INVALID_PHONE = 'invalid_phone';

/** Companies created without a country read national numbers as British (the demo's). */
export const DEFAULT_COUNTRY = 'GB';

/** An ISO 3166-1 alpha-2 country that libphonenumber knows ("GB", "US"). */
export const countrySchema = z
  .string()
  .regex(/^[A-Z]{2}$/, 'Use a two-letter ISO country code such as GB')
  .refine(isSupportedCountry, 'Not a country with phone numbering known here')
  .meta({ id: 'Country', example: 'GB' });

/**
 * `raw` in E.164, read in `country` when it has no international prefix; null when it is not
 * a valid phone number.
 */
export function toE164(raw: string, country: string): string | null {
  const text = raw.trim().replace(/^00(?=[1-9])/, '+');
  const defaultCountry = isSupportedCountry(country) ? (country as CountryCode) : undefined;
  const parsed = parsePhoneNumberFromString(text, defaultCountry ? { defaultCountry } : {});
  return parsed?.isValid() ? parsed.number : null;
}
