import { spaRoutes } from '@upnext/contract/routes';
import type { AuthContext } from '../../auth/context.ts';
import { AuthError } from '../../auth/errors.ts';
import { inviteUserByEmail, serverCall } from '../../auth/invite.ts';
import { renderAuthEmail } from '../../auth/templates.ts';
import { findUserByEmail } from '../../auth/users.ts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import type { InviteUser } from './companies.service.ts';

/** Where invitations are answered: both emails' buttons lead there. */
const accountPage = (auth: AuthContext) => `${auth.auth.siteUrl}${spaRoutes.adminAccount}`;

/** Tells someone who already has an account that a team invited them. */
async function sendInvitationNotice(
  auth: AuthContext,
  { email, companyName, language }: Parameters<InviteUser>[0],
): Promise<void> {
  const notice = renderAuthEmail(
    'team_invitation',
    { to: email, siteUrl: auth.auth.siteUrl, pageUrl: accountPage(auth), teamName: companyName },
    language,
  );
  await auth.mailer.send(notice);
}

/**
 * Invites through the auth service (`inviteUserByEmail`: a user without a password and a
 * branded invitation whose link confirms the address and signs them in at /admin/account,
 * where they choose a password and accept the invitation). Someone who already has a confirmed
 * account gets a notice instead. Either way the membership stays `invited`, granting nothing,
 * until its invitee accepts it (`POST /user/invitations/{companyId}/accept`).
 */
export function createInviter(deps: { db: Db; auth: AuthContext }): InviteUser {
  return async (input) => {
    const existing = await findUserByEmail(deps.db, input.email);
    if (existing?.emailConfirmedAt) {
      await sendInvitationNotice(deps.auth, input);
      return { userId: existing.id };
    }
    try {
      const user = await inviteUserByEmail(
        deps.auth,
        input.email,
        { redirectTo: accountPage(deps.auth), teamName: input.companyName },
        serverCall(input.language),
      );
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
