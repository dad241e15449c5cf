import { companyBillingPath } from '@upnext/contract/routes';
import { ApiError } from './api-client.ts';
import { i18n } from './i18n.ts';

/**
 * What to tell the user about a failure, for every screen: a feature's own wording for the
 * codes it words itself (`ownWords`), else the server's reason (it names the problem, e.g.
 * "the session is not open"), else "offline" or the generic line.
 */
export function errorText(error: unknown, ownWords?: (code: string) => string | undefined): string {
  if (error instanceof ApiError) {
    const own = ownWords?.(error.code);
    if (own) return own;
    if (error.fromServer && error.message) return error.message;
    if (error.code === 'network_error') return i18n.t('errors.offline');
  }
  return i18n.t('errors.generic');
}

export function errorCode(error: unknown): string | null {
  return error instanceof ApiError ? error.code : null;
}

/**
 * Where a refusal can be resolved, if somewhere: a plan limit (`plan_limit_reached`) is lifted
 * by upgrading in the company's Billing settings. Shown beside the server's message.
 */
export function errorAction(error: unknown): { label: string; to: string } | null {
  if (errorCode(error) === 'plan_limit_reached') {
    return { label: i18n.t('errors.upgrade'), to: companyBillingPath };
  }
  return null;
}
