import { errorText } from '../../../lib/error-text.ts';
import { i18n } from '../../../lib/i18n.ts';

/** Refusals the visitor meets often, in the visit namespace's own words. */
const known = new Set([
  'session_full',
  'token_limit_reached',
  'slot_full',
  'slot_in_past',
  'session_closed',
  'join_request_required',
  'promotion_invalid',
  'payments_unavailable',
  'payment_hold_expired',
  'payment_not_required',
  'payment_not_found',
]);

/** What to tell the visitor about a failure: our wording for known codes, else `errorText`'s. */
export function visitErrorText(error: unknown): string {
  return errorText(error, (code) => (known.has(code) ? i18n.t(`visit:errors.${code}`) : undefined));
}
