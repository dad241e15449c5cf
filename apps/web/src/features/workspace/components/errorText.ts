import { ApiError } from '../../../lib/api-client.ts';
import { i18n } from '../../../lib/i18n.ts';

/** What to tell the user about a failure: the server's own reason when it gave one. */
export function errorText(error: unknown): string {
  if (error instanceof ApiError && error.fromServer) return error.message;
  if (error instanceof ApiError && error.code === 'network_error') {
    return i18n.t('workspace:state.offline');
  }
  return i18n.t('errors.generic');
}
