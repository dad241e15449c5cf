import { ApiError } from '../../../lib/api-client.ts';
import { i18n } from '../../../lib/i18n.ts';

/**
 * What to tell staff about a failure: the server's own reason when it gave one (it names the
 * problem, e.g. "the session is not open"), a known code's text otherwise.
 */
export function errorText(error: unknown): string {
  if (error instanceof ApiError && error.fromServer && error.message) return error.message;
  if (error instanceof ApiError && i18n.exists(`live:errors.${error.code}`)) {
    return i18n.t(`live:errors.${error.code}`);
  }
  return i18n.t('errors.generic');
}
