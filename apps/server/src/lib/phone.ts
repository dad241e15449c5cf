import { INVALID_PHONE, toE164 } from '@upnext/contract/phone';
import { AppError } from './errors.ts';

/**
 * A phone entered through /api, in E.164 by the contract's one rule (read in the company's
 * country when national); `invalid_phone` naming the field otherwise.
 */
export function requirePhone(raw: string, country: string, field: string): string {
  const e164 = toE164(raw, country);
  if (!e164) {
    throw new AppError(
      INVALID_PHONE,
      `This is not a valid phone number. Give it with its country code (+44 ...) or as dialled in ${country}.`,
      { field, country },
    );
  }
  return e164;
}
