import type { AuthContextRef } from '../../auth/context.ts';
import { AuthError } from '../../auth/errors.ts';
import { inviteUserByEmail } from '../../auth/invite.ts';
import { findUserByEmail } from '../../auth/users.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import type { InviteUser } from './companies.service.ts';
import { createFallbackInviter } from './invite.fallback.ts';

/**
 * Invites through the auth service (`inviteUserByEmail`: a user without a password and a
 * branded invitation whose link confirms the address and signs them in at /admin/account,
 * where they choose a password and accept the invitation). Someone who already has a confirmed
 * account gets a notice instead. Either way the membership stays `invited`, granting nothing,
 * until its invitee accepts it (`POST /user/invitations/{companyId}/accept`). Without an auth context (never in the running app),
 * the fallback invite is used.
 */
export function createInviter(deps: {
  db: Db;
  clock: Clock;
  config: Config;
  authService: AuthContextRef | undefined;
}): InviteUser {
  const fallback = createFallbackInviter(deps);
  return async (input) => {
    const ctx = deps.authService?.current;
    const existing = await findUserByEmail(deps.db, input.email);
    if (!ctx || existing?.emailConfirmedAt) return fallback(input);
    try {
      const user = await inviteUserByEmail(ctx, input.email, {
        redirectTo: `${deps.config.auth.siteUrl}/admin/account`,
        teamName: input.companyName,
      });
      return { userId: user.id };
    } catch (error) {
      if (error instanceof AuthError && error.status === 429) {
        throw new AppError(
          'too_many_requests',
          'An invitation was just sent to this address. Please wait a moment and try again.',
          undefined,
          { retryAfterSeconds: error.retryAfterSeconds },
        );
      }
      throw error;
    }
  };
}
