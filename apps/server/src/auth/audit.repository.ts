import type { Db, Tx } from '../db/client.ts';
import { authAuditLog } from '../db/schema/auth.ts';
import type { RequestInfo } from './context.ts';

export type AuditAction =
  | 'user_signedup'
  | 'user_repeated_signup'
  | 'user_confirmation_requested'
  | 'login'
  | 'logout'
  | 'token_refreshed'
  | 'token_revoked'
  | 'user_modified'
  | 'user_updated_password'
  | 'user_recovery_requested'
  | 'magiclink_requested'
  | 'identity_linked'
  | 'identity_unlinked'
  | 'factor_in_progress'
  | 'mfa_verified'
  | 'verification_attempted'
  | 'factor_unenrolled'
  | 'passkey_created'
  | 'passkey_updated'
  | 'passkey_deleted'
  | 'user_invited'
  | 'user_deleted'
  | 'admin_user_created'
  | 'admin_generated_link';

/** One row per auth event, with the client IP and request id; never a secret. */
export async function audit(
  db: Db | Tx,
  info: RequestInfo,
  action: AuditAction,
  actorId: string | null,
  traits: Record<string, unknown> = {},
): Promise<void> {
  await db.insert(authAuditLog).values({
    action,
    actorId,
    traits,
    ip: info.ip,
    requestId: info.requestId,
  });
}
