import { ApiError } from '../../../lib/api-client.ts';
import { i18n } from '../../../lib/i18n.ts';

/** Refusals the visitor meets often, in the visit namespace's own words. */
const known = new Set([
  'session_full',
  'token_limit_reached',
  'slot_full',
  'slot_in_past',
  'session_closed',
  'join_request_required',
]);

/** What to tell the visitor about a failure: our wording for known codes, else the server's. */
export function visitErrorText(error: unknown): string {
  if (error instanceof ApiError) {
    if (known.has(error.code)) return i18n.t(`visit:errors.${error.code}`);
    if (error.fromServer) return error.message;
    if (error.code === 'network_error') return i18n.t('visit:state.offline');
  }
  return i18n.t('visit:state.generic');
}

export function errorCode(error: unknown): string | null {
  return error instanceof ApiError ? error.code : null;
}
